"""What a run announces, so that features above it react without the runs package importing them.

``run_ended`` is sent once the end of an attempt is recorded (finished, failed or cancelled), inside the
transaction that recorded it; a receiver that enqueues work does so with ``transaction.on_commit``.
Receivers are connected in ``ResearchConfig.ready`` (research/apps.py).
"""

from __future__ import annotations

from django.dispatch import Signal

run_ended = Signal()  # sender: Run (the class); kwargs: run_id (int), status (str)
