"""Inference backends, one module each (openai_compat, heuristic, scripted), chosen by name in ``registry``."""
