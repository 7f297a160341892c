"""How the benchmarks print: one way to lay out a table of figures, and one way to write
them as JSON for a later run to compare against (``bench/scale.py --json/--compare``)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def table(columns: Sequence[tuple[str, str]], rows: Iterable[Sequence[Any]]) -> str:
    """``rows`` under their ``columns``' headers, each column as wide as its header or
    its widest cell; a column is (header, format spec of its cells, e.g. ``".1f"``),
    its cells right-aligned unless the spec starts with ``<``. Indented by two spaces."""
    cells = [
        [format(value, spec.lstrip("<")) for value, (_h, spec) in zip(row, columns, strict=True)]
        for row in rows
    ]
    widths = [
        max([len(header), *(len(row[index]) for row in cells)])
        for index, (header, _spec) in enumerate(columns)
    ]

    def line(values: Sequence[str]) -> str:
        return (
            "  "
            + " ".join(
                value.ljust(width) if spec.startswith("<") else value.rjust(width)
                for value, width, (_h, spec) in zip(values, widths, columns, strict=True)
            ).rstrip()
        )

    return "\n".join([line([header for header, _spec in columns]), *map(line, cells)])


def write_json(path: str | Path, figures: dict[str, Any]) -> None:
    """``figures`` to ``path``, a number that is not one (NaN: nothing measured) as null."""

    def plain(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [plain(item) for item in value]
        return value

    Path(path).write_text(json.dumps(plain(figures), indent=1) + "\n")
