"""Local mode, ``SearchAgent(documents="./folder")``: the Context-1 harness over a folder in this process, with no
server (research/local.py of Context-1 Web, which must be installed: ``pip install -e .`` in a checkout)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

from context1_web_sdk.errors import Context1Error


class Local(Protocol):
    def search(self, query: str, *, max_steps: int, context_window: int, rollouts: int) -> dict[str, Any]: ...

    def close(self) -> None: ...


def open_local(documents: str | os.PathLike[str], model: str) -> Local:
    """The folder indexed for local searches; ``Context1Error`` when Context-1 Web is not installed here or the
    folder holds nothing readable."""
    try:
        from research.local import LocalSearch, LocalSettings
    except ImportError as error:
        raise Context1Error(
            "Local mode runs Context-1 Web's search harness in this process: install Context-1 Web itself "
            f"(pip install -e . in a checkout), or pass base_url= to use a server ({error})."
        ) from None
    try:
        return LocalSearch(Path(documents), LocalSettings.from_env(model))
    except (OSError, ValueError) as error:
        raise Context1Error(str(error)) from None


class ServerOnlyError(Context1Error):
    """Asked of an agent in local mode what only a server does (start a run, stream it, a report)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{what} needs a server: local mode (documents=) only searches")
