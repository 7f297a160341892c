"""The API's JSON renderer: DRF's output, written by orjson.

A move's answer is the game as its player sees it, about 5 kB, and DRF's renderer (the
standard library's encoder, with a call into Python for each date) was one of the
larger move-specific parts of its CPU (``bench/move_cost.py --parts``). orjson writes
the same document in a fraction of that. What the answer says does not change:

- dates and times are written as DRF writes them (ISO 8601, ``Z`` for a zero offset);
  decimals, lazy translations and the rest go through DRF's own encoder hook;
- keys that are not strings become strings, as the standard library makes them;
- U+2028 and U+2029 are escaped, as DRF escapes them (JSON inside a script tag);
- floats carry the same values; only their spelling may differ (``0.00001``
  for ``1e-05``).

An answer asked for indented (``Accept: application/json; indent=4``), and anything
orjson refuses (an integer beyond 64 bits), go through DRF's renderer as before. A
float that is not a number is written as ``null`` rather than failing the response.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework import renderers

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_UTC_Z
_LINE_SEPARATOR = "\u2028".encode()
_PARAGRAPH_SEPARATOR = "\u2029".encode()


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        indent = self.get_indent(accepted_media_type or "", renderer_context or {})
        if indent is not None or self.ensure_ascii or not self.compact:
            return bytes(super().render(data, accepted_media_type, renderer_context))
        try:
            document = orjson.dumps(data, default=self.encoder_class().default, option=_OPTIONS)
        except orjson.JSONEncodeError:
            return bytes(super().render(data, accepted_media_type, renderer_context))
        if _LINE_SEPARATOR in document or _PARAGRAPH_SEPARATOR in document:
            document = document.replace(_LINE_SEPARATOR, b"\\u2028").replace(
                _PARAGRAPH_SEPARATOR, b"\\u2029"
            )
        return document
