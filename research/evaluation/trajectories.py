"""Trajectories for training: each rollout of a run as one JSON record (schema ``context1-web.trajectory.v1``).

One line per rollout:

- ``schema``, ``source`` (``{"kind": "run", "run_id", "workspace"}`` or ``{"kind": "evaluation", "path",
  "task_id"}``), ``question``, ``rollout``;
- ``steps``: per turn, its ``tool_calls`` (``call_id``, ``tool``, ``arguments`` as the model sent them, a JSON
  string), its ``observations`` (``call_id``, ``tool``, ``chunks`` with ``chunk_id``, ``doc_id``, ``title``,
  ``score`` and ``text``, ``tokens``, ``error``), the chunk ids it ``pruned`` and its ``usage`` (prompt, completion
  and context tokens, ``exact`` when the backend counted them);
- ``messages``: the same as chat messages (``user`` question, ``assistant`` tool calls, ``tool`` observations in
  the harness's wire format, ``<chunk id=... doc=...>`` elements), what a trainer replays;
- ``final_ranking``: the rollout's ranked documents (``doc_id``, ``title``, ``score``, ``chunk_ids``);
- ``stop``: ``reason``, ``turns``, ``error``;
- ``reward``: the reward's terms (research/evaluation/reward.py) where the task's gold is known, else null;
- ``gold``: ``answer``, ``answer_aliases``, ``supporting_doc_ids`` where known, else null.

The model's own reasoning text is not kept by the harness, so an ``assistant`` message holds its tool calls only.
Framework-free: events and a chunk-text lookup in, records out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from research.protocol.events import (
    ChunksPruned,
    Event,
    RolloutFinished,
    ToolCalled,
    ToolReturned,
    TurnRecorded,
)
from research.protocol.wire import WireChunk, render

SCHEMA = "context1-web.trajectory.v1"
ChunkText = Callable[[str], str | None]  # chunk id -> its text (None: not known)


def _step(turn: int) -> dict[str, Any]:
    return {"turn": turn, "tool_calls": [], "observations": [], "pruned": [], "usage": None}


def _observation(event: ToolReturned, chunk_text: ChunkText) -> dict[str, Any]:
    return {
        "call_id": event.call_id,
        "tool": event.tool,
        "chunks": [
            {
                "chunk_id": chunk.chunk_id,
                "doc_id": chunk.doc_id,
                "title": chunk.title,
                "score": chunk.score,
                "text": chunk_text(chunk.chunk_id),
            }
            for chunk in event.chunks
        ],
        "tokens": event.tokens,
        "error": event.error,
    }


def _steps(events: Sequence[Event], rollout: int, chunk_text: ChunkText) -> list[dict[str, Any]]:
    steps: dict[int, dict[str, Any]] = {}
    for event in events:
        if getattr(event, "rollout", None) != rollout:
            continue
        turn = getattr(event, "turn", None)
        if turn is None:
            continue
        step = steps.setdefault(turn, _step(turn))
        if isinstance(event, ToolCalled):
            step["tool_calls"].append({"call_id": event.call_id, "tool": event.tool, "arguments": event.arguments})
        elif isinstance(event, ToolReturned):
            step["observations"].append(_observation(event, chunk_text))
        elif isinstance(event, ChunksPruned):
            step["pruned"].extend(event.chunk_ids)
        elif isinstance(event, TurnRecorded):
            step["usage"] = {
                "prompt_tokens": event.prompt_tokens,
                "completion_tokens": event.completion_tokens,
                "context_tokens": event.context_tokens,
                "exact": event.exact,
            }
    return [steps[turn] for turn in sorted(steps)]


def _tool_content(observation: Mapping[str, Any]) -> str:
    if observation["error"]:
        return f"error: {observation['error']}"
    return "\n".join(
        render(WireChunk(c["chunk_id"], c["doc_id"], c["title"], c["score"], c["text"] or ""))
        for c in observation["chunks"]
    )


def messages(question: str, steps: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The steps as chat messages: the question, then per turn the assistant's tool calls and each tool's answer."""
    said: list[dict[str, Any]] = [{"role": "user", "content": question}]
    for step in steps:
        if step["tool_calls"]:
            calls = [
                {
                    "id": call["call_id"],
                    "type": "function",
                    "function": {"name": call["tool"], "arguments": call["arguments"]},
                }
                for call in step["tool_calls"]
            ]
            said.append({"role": "assistant", "content": None, "tool_calls": calls})
        for observation in step["observations"]:
            said.append({"role": "tool", "tool_call_id": observation["call_id"], "content": _tool_content(observation)})
    return said


def trajectories(
    events: Sequence[Event],
    *,
    question: str,
    source: Mapping[str, Any],
    chunk_text: ChunkText,
    rewards: Mapping[int, Mapping[str, float]] | None = None,
    gold: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """A record per rollout that finished (in rollout order), as the module's docstring describes."""
    records = []
    for finished in sorted((e for e in events if isinstance(e, RolloutFinished)), key=lambda e: e.rollout):
        steps = _steps(events, finished.rollout, chunk_text)
        records.append(
            {
                "schema": SCHEMA,
                "source": dict(source),
                "question": question,
                "rollout": finished.rollout,
                "steps": steps,
                "messages": messages(question, steps),
                "final_ranking": [
                    {"doc_id": d.doc_id, "title": d.title, "score": d.score, "chunk_ids": list(d.chunk_ids)}
                    for d in finished.documents
                ],
                "stop": {"reason": finished.reason, "turns": finished.turns, "error": finished.error},
                "reward": None
                if rewards is None or finished.rollout not in rewards
                else dict(rewards[finished.rollout]),
                "gold": None if gold is None else dict(gold),
            }
        )
    return records
