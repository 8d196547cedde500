"""`context1 search "question" --corpus NAME [--workspace SLUG] [--web]`: run a research job here and print its
events (with ``--web``, each web search and fetch with its address and outcome)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from typing import Any

from research.protocol.events import (
    ChunksPruned,
    Event,
    FusedRankingUpdated,
    RolloutFinished,
    RunFailed,
    RunFinished,
    ToolCalled,
    ToolReturned,
)


def _tool_called(e: ToolCalled) -> str:
    return f"[r{e.rollout} t{e.turn}] {e.tool}: {e.query}"


def _tool_returned(e: ToolReturned) -> str | None:
    if e.page is not None:
        what = f"{e.page.outcome}: {e.page.url}" + (f" ({e.page.reason})" if e.page.reason else "")
        return f"[r{e.rollout} t{e.turn}]   -> {what}" + (f", {len(e.chunks)} chunk(s)" if e.chunks else "")
    if e.results:
        return f"[r{e.rollout} t{e.turn}]   -> {len(e.results)} web result(s): " + ", ".join(
            h.url for h in e.results[:3]
        )
    if e.error:
        return f"[r{e.rollout} t{e.turn}]   ! {e.error}"
    new = sum(1 for c in e.chunks if c.new)
    return f"[r{e.rollout} t{e.turn}]   -> {len(e.chunks)} chunk(s), {new} new" if e.chunks else None


def _pruned(e: ChunksPruned) -> str:
    return f"[r{e.rollout} t{e.turn}] pruned {len(e.chunk_ids)} chunk(s), freed {e.freed_tokens:,} tokens"


def _fused(e: FusedRankingUpdated) -> str:
    return "          fused: " + ", ".join(f"{d.title} ({d.agreement})" for d in e.documents[:3])


def _rollout(e: RolloutFinished) -> str:
    return f"[r{e.rollout}] finished after {e.turns} turn(s): {e.reason}" + (f" ({e.error})" if e.error else "")


def _finished(e: RunFinished) -> str:
    lines = [
        f"{i}. {d.title}  [{d.doc_id}]  rollouts {d.agreement}  score {d.score:.4f}"
        for i, d in enumerate(e.documents, 1)
    ]
    return "\nSupporting documents:\n" + "\n".join(lines)


def _failed(e: RunFailed) -> str:
    return f"run failed: {e.error}"


_FORMATS: dict[type[Any], Callable[[Any], str | None]] = {
    ToolCalled: _tool_called,
    ToolReturned: _tool_returned,
    ChunksPruned: _pruned,
    FusedRankingUpdated: _fused,
    RolloutFinished: _rollout,
    RunFinished: _finished,
    RunFailed: _failed,
}


def describe(event: Event) -> str | None:
    """One readable line for an event (None for the ones not worth a line)."""
    format_event = _FORMATS.get(type(event))
    return None if format_event is None else format_event(event)


class PrintSink:
    def emit(self, event: Event) -> None:
        line = describe(event)
        if line is not None:
            print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="context1", description="Agentic search over a corpus, from the terminal.")
    commands = parser.add_subparsers(dest="command", required=True)
    search = commands.add_parser("search", help="run a research job and print its live events")
    search.add_argument("question")
    search.add_argument("--corpus", required=True, help="corpus name (any case) or slug")
    search.add_argument("--workspace", help="workspace slug (needed when corpora of several workspaces match)")
    search.add_argument("--rollouts", type=int, default=4)
    search.add_argument("--budget", type=int, default=32_768)
    search.add_argument("--max-turns", type=int, default=16)
    search.add_argument("--web", action="store_true", help="search the web too (needs WEB_SEARCH_PROVIDER)")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "context1_web.settings")
    import django

    django.setup()
    from research.runs.agent import run_in_process

    try:
        result = asyncio.run(
            run_in_process(
                question=args.question,
                corpus_name=args.corpus,
                workspace_slug=args.workspace,
                rollouts=args.rollouts,
                budget=args.budget,
                max_turns=args.max_turns,
                sink=PrintSink(),
                web=args.web,
            )
        )
    except LookupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0 if result.status == "finished" else 1


if __name__ == "__main__":
    sys.exit(main())
