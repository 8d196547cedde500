"""``python -m context1_web.die_with_parent [--signal NAME] PARENT_PID PROGRAM [ARG ...]``: run PROGRAM so that it is
sent SIGTERM (or SIGNAME) when the process PARENT_PID dies, however it dies (SIGKILL included), then become PROGRAM
(exec). The Celery worker is given KILL: its broker, the launcher's embedded Redis, dies with the launcher, and a
worker sent SIGTERM or SIGQUIT then was seen alive more than 5 s later under load (probably reconnecting to it); its
tasks are acknowledged late and idempotent, and the sweep queues again what was running, so an orphan has nothing
to finish.

The launcher starts each of its children through this (context1_web/launcher.py), so that none of them outlives it:
on Linux the kernel's parent-death signal (``prctl(PR_SET_PDEATHSIG)``), which survives ``exec``. It is set here,
in a process of its own before the exec, rather than in a ``preexec_fn`` (unsafe once the launcher has threads).
A launcher that died before the signal was set is seen by the parent check and nothing is started. Elsewhere than
Linux the program runs without the signal (the launcher still stops its children when it stops normally).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


USAGE = "usage: python -m context1_web.die_with_parent [--signal NAME] PARENT_PID PROGRAM [ARG ...]"


def main(argv: list[str]) -> int:
    sent = signal.SIGTERM
    if argv[:1] == ["--signal"] and len(argv) > 1:
        try:
            sent = signal.Signals[f"SIG{argv[1].upper()}"]
        except KeyError:
            print(f"{USAGE}\nunknown signal {argv[1]!r}", file=sys.stderr)
            return 2
        argv = argv[2:]
    if len(argv) < 2 or not argv[0].isdigit():
        print(USAGE, file=sys.stderr)
        return 2
    parent, program = int(argv[0]), argv[1:]
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sent)
    if os.getppid() != parent:  # the launcher died before the signal was set: start nothing
        return 1
    os.execv(program[0], program)  # noqa: S606 - the launcher's own children, by full path
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
