"""Bytes to text for the text-based formats: byte-order marks, UTF-8, then charset detection."""

from __future__ import annotations

import codecs
import re

import charset_normalizer

_BYTE_ORDER_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f]")  # all but \t \n \v \f \r and ESC
_MAX_CONTROL_SHARE = 0.01


def decode_text(data: bytes) -> str | None:
    """The text these bytes hold, or None when they look like binary data rather than text."""
    text = _decode(data)
    if text is None or _too_many_controls(text):
        return None
    return text


def _decode(data: bytes) -> str | None:
    for mark, codec in _BYTE_ORDER_MARKS:
        if data.startswith(mark):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                return None
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        best = charset_normalizer.from_bytes(data).best()
        return None if best is None else str(best)


def _too_many_controls(text: str) -> bool:
    """Binary data decoded by force is full of control characters; text has few besides tabs and line breaks."""
    allowed = len(text) * _MAX_CONTROL_SHARE
    return any(count > allowed for count, _ in enumerate(_CONTROLS.finditer(text), 1))
