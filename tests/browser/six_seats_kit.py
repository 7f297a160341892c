"""What the browser tests of a table of six share: the cards its lobby draws for the
seats, and when two boxes on the page overlap."""

from __future__ import annotations

# Lobby order: the host, the four bots, the guest. The host draws the ace and starts;
# the cards go down clockwise, so nobody changes seats.
DRAWS = ["AS", "KH", "QH", "JD", "10C", "9S"]


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    # Half a pixel of slack for subpixel layout.
    return (
        a["x"] + a["width"] > b["x"] + 0.5
        and b["x"] + b["width"] > a["x"] + 0.5
        and a["y"] + a["height"] > b["y"] + 0.5
        and b["y"] + b["height"] > a["y"] + 0.5
    )
