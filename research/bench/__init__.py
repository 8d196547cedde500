"""Benchmarks: commands, their Celery task and baselines. The product imports nothing from here."""
