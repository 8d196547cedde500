"""The `make run` supervisor (context1_web.launcher) as the tests start it, and the processes under it."""

from __future__ import annotations

import os
from pathlib import Path

# The real default, MiniLM included (the suite's EMBEDDER_BACKEND=hashing would hide its loading lines).
_CLEAR = (
    "DATABASE_URL",
    "REDIS_URL",
    "CHROMA_URL",
    "SECRET_KEY",
    "VLLM_BASE_URL",
    "DJANGO_SETTINGS_MODULE",
    "EMBEDDER_BACKEND",
    "HF_HUB_DISABLE_PROGRESS_BARS",
    "TRANSFORMERS_VERBOSITY",
)


def launcher_env(data_dir: Path, port: int) -> dict[str, str]:
    """The suite's environment less every address and the test settings: the launcher's embedded default."""
    env = {key: value for key, value in os.environ.items() if key not in _CLEAR and not key.startswith("PYTEST")}
    env.update(DATA_DIR=str(data_dir), PORT=str(port), PYTHONUNBUFFERED="1")
    return env


def descendants(root: int) -> dict[int, str]:
    """Every living process under ``root`` (from /proc), with its command line."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = {}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                try:
                    found[pid] = (Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")).decode()
                except OSError:
                    continue
                frontier.append(pid)
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited
    except OSError:
        return False
