"""A card as a player types it (the queued draw's "unless the discard pile shows"): as
the table draws it (rank and suit symbol, the joker's star or word) or in the API's
notation; anything else is no card. Run in node, with the browser's globals stubbed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

CARDS = Path(__file__).resolve().parents[2] / "static" / "js" / "cards.js"
# node: installed by scripts/ensure_services.sh, as for the AsyncAPI parser.
NODE = shutil.which("node") or "node"
HARNESS = """
globalThis.window = globalThis;
globalThis.document = {
  body: { hasAttribute: () => false, dataset: {}, setAttribute() {} },
  documentElement: { lang: "en", dataset: {} },
  addEventListener() {}, querySelector: () => null, getElementById: () => null, cookie: "",
};
globalThis.localStorage = { getItem: () => null, setItem() {} };
const { cardFromTyped } = await import(process.argv[2]);
console.log(JSON.stringify(JSON.parse(process.argv[3]).map((typed) => cardFromTyped(typed))));
"""
TYPED = {
    "7♥": "7H",
    "10♠": "10S",
    "a♦": "AD",
    "Q♣": "QC",
    "★": "JK",
    "Joker": "JK",
    "7H": "7H",
    "jk": "JK",
    "1♠": None,
    "11H": None,
    "♥": None,
    "seven": None,
}


def test_a_typed_card_is_read_as_the_table_draws_it_or_in_the_apis_notation(
    tmp_path: Path,
) -> None:
    harness = tmp_path / "harness.mjs"
    harness.write_text(HARNESS)
    run = subprocess.run(
        [str(NODE), str(harness), CARDS.as_uri(), json.dumps(list(TYPED))],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(run.stdout.strip().splitlines()[-1]) == list(TYPED.values())
