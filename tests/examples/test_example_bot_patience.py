"""examples/bot.py waits out a busy site: a 503 (the database restarting) or a 429 is
sent again, the same request with the same Idempotency-Key, once Retry-After's seconds
are over; anything else is the bot's to read."""

from __future__ import annotations

import asyncio

import httpx

from tests.script_kit import ROOT, load_file

BOT = ROOT / "examples" / "bot.py"


def sent_through_patience(answers: list[httpx.Response]) -> tuple[int, list[httpx.Request]]:
    """POST a move through the bot's transport to a site that gives ``answers`` in turn:
    (the status the bot sees, the requests the site got)."""
    got: list[httpx.Request] = []

    def site(request: httpx.Request) -> httpx.Response:
        got.append(request)
        return answers.pop(0)

    async def post() -> int:
        transport = load_file(BOT, "example_bot").Patient(httpx.MockTransport(site))
        async with httpx.AsyncClient(transport=transport) as client:
            response = await client.post(
                "http://site/api/v1/games/g/actions",
                json={"action": {"type": "draw"}, "ply": 3},
                headers={"Idempotency-Key": "k1"},
            )
            return response.status_code

    return asyncio.run(post()), got


def test_the_example_bot_sends_a_move_again_after_a_503_and_a_429():
    answers = [
        httpx.Response(503, headers={"Retry-After": "0"}),
        httpx.Response(429, headers={"Retry-After": "0"}),
        httpx.Response(200, json={"game": {}}),
    ]

    status, got = sent_through_patience(answers)

    assert status == 200
    assert len(got) == 3
    assert {(r.content, r.headers["Idempotency-Key"]) for r in got} == {(got[0].content, "k1")}


def test_the_example_bot_gives_up_waiting_after_six_tries_and_reads_the_answer():
    answers = [httpx.Response(503, headers={"Retry-After": "0"}) for _ in range(7)]

    status, got = sent_through_patience(answers)

    assert status == 503 and len(got) == 6


def test_the_example_bot_reads_any_other_refusal_at_once():
    status, got = sent_through_patience([httpx.Response(409), httpx.Response(200)])

    assert status == 409 and len(got) == 1
