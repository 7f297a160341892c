"""The API's JSON parser: DRF's, after a check that the document is not nested too deeply.

Python's ``json`` module recurses once per level of nesting, so a body of ten thousand
``[`` exhausts the stack (``RecursionError``, a 500). No request of this API nests
more than a few levels, so anything deeper than :data:`MAX_JSON_DEPTH` is refused
with a 400 before it is parsed, by a scan that does not recurse.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import IO, Any

from rest_framework import parsers

from remi_site.api_errors import ApiError

MAX_JSON_DEPTH = 64

# A JSON string, escapes included (unrolled so that it does not backtrack): brackets
# inside strings do not nest anything.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(rb"[^\[\]{}]+")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth(document: bytes) -> int:
    """How deeply arrays and objects nest in a JSON document (UTF-8), without parsing it.

    Malformed JSON gets a number too; the parser refuses it afterwards anyway."""
    brackets = _NOT_A_BRACKET.sub(b"", _STRING.sub(b"", document))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


class TooDeeplyNested(ApiError):
    def __init__(self) -> None:
        super().__init__(
            "json_too_deep",
            f"The JSON body is nested deeper than {MAX_JSON_DEPTH} levels.",
            details={"max_depth": MAX_JSON_DEPTH},
        )


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing documents nested deeper than :data:`MAX_JSON_DEPTH`."""

    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        document = stream.read() if stream is not None else b""
        if json_depth(document) > MAX_JSON_DEPTH:
            raise TooDeeplyNested()
        return super().parse(io.BytesIO(document), media_type, parser_context)
