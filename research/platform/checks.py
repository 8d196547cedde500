"""System checks (`manage.py check`, and `check --deploy`) for settings that are valid one by one but not together."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks


@checks.register()
def heuristic_beside_vllm(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """INFERENCE_BACKEND=heuristic while VLLM_BASE_URL names a server: the offline agent runs and vLLM sits idle (a
    .env made from an older .env.example, which set the variable, does this)."""
    if settings.INFERENCE_BACKEND == "heuristic" and settings.VLLM_BASE_URL:
        return [
            checks.Warning(
                f"INFERENCE_BACKEND=heuristic although VLLM_BASE_URL={settings.VLLM_BASE_URL} is set: runs use the "
                "offline agent, not the model server",
                hint="Leave INFERENCE_BACKEND empty (it follows VLLM_BASE_URL) or set it to openai.",
                id="research.W001",
            )
        ]
    return []
