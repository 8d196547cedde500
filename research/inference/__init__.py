"""Inference backends, one module each: openai_compat (vLLM), heuristic (offline), scripted (tests)."""
