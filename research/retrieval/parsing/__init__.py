"""Uploads to documents: format detection, one parser per family, zip expansion and a sandboxed runner."""

from __future__ import annotations

from research.retrieval.parsing.archive import ArchiveLimits, UploadItem, expand_upload
from research.retrieval.parsing.detect import detect_kind
from research.retrieval.parsing.dispatch import parse_bytes
from research.retrieval.parsing.sandbox import SandboxLimits, parse_in_sandbox
from research.retrieval.parsing.types import ParsedDocument, ParseError, ParseOptions, ParseOutcome

__all__ = [
    "ArchiveLimits",
    "ParseError",
    "ParseOptions",
    "ParseOutcome",
    "ParsedDocument",
    "SandboxLimits",
    "UploadItem",
    "detect_kind",
    "expand_upload",
    "parse_bytes",
    "parse_in_sandbox",
]
