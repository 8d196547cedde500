"""The seed's example against a Context-1 Web server: prints the answer, its sources, the searches it ran and the
chunks it pruned, as JSON.

    python examples/search_agent.py --base-url http://127.0.0.1:8000 --api-key c1w_... --workspace demo-workspace \\
        "Which prices does Stellique list?"

The token comes from Your account -> API tokens, or ``python manage.py api_token create --user U --workspace S``.
With ``--documents ./folder`` instead, it searches that folder in this process, with no server (local mode).
"""

from __future__ import annotations

import argparse
import json

from context1_web_sdk import SearchAgent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("query")
    parser.add_argument("--base-url", default=None, help="default: CONTEXT1_BASE_URL or http://127.0.0.1:8000")
    parser.add_argument("--api-key", default=None, help="default: CONTEXT1_API_KEY")
    parser.add_argument("--workspace", default=None, help="the workspace's slug; default: CONTEXT1_WORKSPACE")
    parser.add_argument("--documents", default=None, help="a folder to search locally, with no server")
    parser.add_argument("--max-steps", type=int, default=5)
    parser.add_argument("--context-window", type=int, default=32768)
    options = parser.parse_args()
    where = (
        {"documents": options.documents}
        if options.documents
        else {"base_url": options.base_url, "api_key": options.api_key, "workspace": options.workspace}
    )
    with SearchAgent(model="chromadb/context-1", **where) as agent:
        result = agent.search(query=options.query, max_steps=options.max_steps, context_window=options.context_window)
    print(
        json.dumps(
            {
                "answer": result.answer,
                "sources": [source.model_dump() for source in result.sources],
                "num_queries": result.num_queries,
                "pruned_docs": result.pruned_docs,
                "url": result.url,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
