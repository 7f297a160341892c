"""A whole Remi bot with `requests` alone: the NDJSON streams and one request a turn.

    python examples/stream_bot.py --server URL --token remi_... [--challenge NAME] [--games 1]

It follows its event stream (GET /api/v1/stream/events), accepts casual challenges,
and plays each game it is in from that game's stream (GET /api/v1/games/{id}/stream):
on its turn it draws, asks for a hint (the solver's melds and lay-offs), and sends
them with its discard as one turn (POST /api/v1/games/{id}/turn). See docs/api.md.
"""

import argparse
import json
from collections.abc import Iterator
from typing import Any

import requests


def lines(api: requests.Session, url: str) -> Iterator[dict[str, Any]]:
    """The frames of an NDJSON stream (keep-alive lines skipped) until it ends."""
    with api.get(url, stream=True, timeout=(10, 60)) as response:
        response.raise_for_status()
        for raw in response.iter_lines():
            if raw:
                yield json.loads(raw)


def weight(card: str) -> int:
    """What a card left in the hand costs; a joker is kept (weighs nothing)."""
    return 0 if card == "JK" else dict(A=11, K=10, Q=10, J=10).get(card[:-1]) or int(card[:-1])


def turn(api: requests.Session, server: str, game: str, actions: list[Any], ply: int) -> Any:
    response = api.post(f"{server}/api/v1/games/{game}/turn", json={"actions": actions, "ply": ply})
    return response.json()["game"] if response.ok else None


def play_turn(api: requests.Session, server: str, game: str, view: dict[str, Any]) -> int:
    """One whole turn from the game as the bot sees it; the ply after it."""
    if view["deal"]["phase"] == "draw":
        view = turn(api, server, game, ["draw"], view["ply"]) or view
    hint = api.post(f"{server}/api/v1/games/{game}/hint").json()
    left = [pair["card"] for pair in hint.get("left") or view["deal"]["hand"]]
    discard = f"discard {max(left, key=weight)}" if left else None
    plans = [hint["actions"] if hint.get("opens") else [], []]
    for melds in plans:  # the hint and the discard, or the discard alone
        after = turn(api, server, game, [*melds, *([discard] if discard else [])], view["ply"])
        if after is not None:
            return int(after["ply"])
    return int(view["ply"])


def play(api: requests.Session, server: str, game: str) -> None:
    """Play a game from its stream until it is over (not waiting for its review)."""
    me, done_through = None, -1
    for frame in lines(api, f"{server}/api/v1/games/{game}/stream"):
        if frame["type"] in ("game_over", "game_aborted"):
            return
        if frame["type"] == "game_full":
            me = frame["view"]["you"]
            mine = frame["view"]["to_move"] == me
        elif frame["type"] == "turn":
            mine = frame["seat"] == me
        else:
            continue
        if mine and frame["ply"] > done_through:
            view = api.get(f"{server}/api/v1/games/{game}").json()
            if view["status"] == "active" and view["to_move"] == view["you"]:
                done_through = play_turn(api, server, game, view)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--challenge", metavar="USERNAME")
    parser.add_argument("--games", type=int, help="stop after this many games")
    args = parser.parse_args()
    api, server, finished = requests.Session(), args.server.rstrip("/"), 0
    api.headers["Authorization"] = f"Bearer {args.token}"
    if args.challenge:
        body = {"to": args.challenge, "preset": "polish51", "rated": False}
        api.post(f"{server}/api/v1/challenges", json=body).raise_for_status()
    for frame in lines(api, f"{server}/api/v1/stream/events"):
        if frame["type"] == "challenge" and frame["direction"] == "in":
            challenge = frame["challenge"]
            answer = "decline" if challenge["rated"] else "accept"
            api.post(f"{server}/api/v1/challenges/{challenge['id']}/{answer}", json={})
        elif frame["type"] == "game_start":
            play(api, server, frame["game"])
            finished += 1
            print(f"game {frame['game']} over", flush=True)
            if args.games is not None and finished >= args.games:
                return


if __name__ == "__main__":
    main()
