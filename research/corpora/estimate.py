"""What embedding a file will cost: its chunk count against MAX_FILE_CHUNKS, and a time estimate to show."""

from __future__ import annotations

import math

# A conservative constant, not a live measurement: the default embedder (MiniLM on the CPU) embedded 4.4 chunks/s
# of ~330-word-piece chunks on the 2-core reference machine under load (docs/benchmarks.md), and the issue's
# 5 MiB file took 1,463 chunks in about 5.5 minutes (4.4/s again). The web process, which renders the estimate,
# embeds nothing, so it has no rate of its own to measure; a faster embedder finishes early.
CHUNKS_PER_SECOND = 4.0
# From this many chunks (about 25 s at the rate above) a file is large enough for a time estimate.
LARGE_FILE_CHUNKS = 100


def over_limit(chunks: int, *, limit: int) -> str | None:
    """The reason a file of ``chunks`` new chunks is refused, or None when it is within ``limit``."""
    if chunks <= limit:
        return None
    return (
        f"this file would be {chunks:,} chunks to embed, over the limit of {limit:,} per file"
        " (MAX_FILE_CHUNKS); split it into smaller files or raise the limit"
    )


def embedding_estimate(chunks: int) -> str:
    """'12 chunks to embed', with '~M min' added for a large file."""
    text = f"{chunks:,} chunk{'' if chunks == 1 else 's'} to embed"
    if chunks < LARGE_FILE_CHUNKS:
        return text
    minutes = max(1, math.ceil(chunks / CHUNKS_PER_SECOND / 60))
    return f"about {text}, ~{minutes} min"
