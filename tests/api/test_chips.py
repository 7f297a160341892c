"""Play chips through the API: the balance and its ledger (GET /me/chips), a game's
stake, the pot split when it ends (Remik 51's prize pool), the stakes given back
when it is aborted."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from games.chips import services as chips
from games.models import ChipLedger, Game
from games.play import shuffle
from games.play.lobby import game_abort
from tests.chipkit import normal_close_decks, normal_close_turns
from tests.gamekit import SchemaChecker, error_of, scripted_deal_source

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games"
CHIPS = "/api/v1/me/chips"

# The Polish seed, verbatim.
SEED_POT = (
    "Po zakończeniu gry pula nagród jest dzielona między graczy w zależności od ilości "
    "zgromadzonych przez nich punktów karnych. Zwycięzca otrzymuje co najmniej 75% nagrody. "
    "Pozostałe 25% jest dzielone między pozostałych graczy, pod warunkiem, że mają mniej niż "
    "50 punktów karnych."
)


def balance(client: Any) -> int:
    value: int = client.get(CHIPS).json()["balance"]
    return value


def create(client: Any, **body: Any) -> Any:
    body.setdefault("preset", "polish51")
    body.setdefault("players", 3)
    return client.post(GAMES, body, format="json")


def seated_game(clients: list[Any], stake: int) -> str:
    created = create(clients[0], players=len(clients), stake=stake)
    assert created.status_code == 201, created.json()
    game_id: str = created.json()["id"]
    for client in clients[1:]:
        joined = client.post(f"{GAMES}/{game_id}/join", {}, format="json")
        assert joined.status_code == 200, joined.json()
    return game_id


def by_seat(clients: list[Any], view: dict[str, Any]) -> list[Any]:
    names = {client.user.username: client for client in clients}
    return [names[seat["user"]["username"]] for seat in view["seats"]]


def act(client: Any, game_id: str, action: str) -> dict[str, Any]:
    ply = client.get(f"{GAMES}/{game_id}").json()["ply"]
    response = client.post(
        f"{GAMES}/{game_id}/actions", {"action": action, "ply": ply}, format="json"
    )
    assert response.status_code == 200, response.json()
    game: dict[str, Any] = response.json()["game"]
    return game


# ------------------------------------------------------------------ the balance


def test_a_new_account_opens_with_the_starting_grant(auth_client, settings):
    response = auth_client.get(CHIPS)

    assert response.status_code == 200
    body = response.json()
    assert body["balance"] == settings.CHIPS_STARTING_GRANT
    assert body["daily_top_up"] == settings.CHIPS_DAILY_TOP_UP
    assert [(row["kind"], row["amount"]) for row in body["results"]] == [
        ("grant", settings.CHIPS_STARTING_GRANT)
    ]
    assert body["results"][0]["balance_after"] == body["balance"]
    SchemaChecker(auth_client).check("GET", CHIPS, 200, body)


def test_the_ledger_pages_newest_first(auth_client, user):
    first = date(2030, 1, 1)
    for days in range(3):
        chips.top_up_daily(day=first + timedelta(days=days))

    page = auth_client.get(f"{CHIPS}?page_size=2").json()
    rest = auth_client.get(page["next"]).json()

    rows = page["results"] + rest["results"]
    assert [row["kind"] for row in rows] == ["top_up", "top_up", "top_up", "grant"]
    assert [row["day"] for row in rows[:3]] == ["2030-01-03", "2030-01-02", "2030-01-01"]
    assert rest["next"] is None
    # Each row says what the balance was after it: the newest is the balance.
    assert rows[0]["balance_after"] == page["balance"]
    assert [row["balance_after"] - row["amount"] for row in rows[:3]] == [
        row["balance_after"] for row in rows[1:]
    ]


def test_the_ledger_needs_a_login(api_client):
    assert api_client.get(CHIPS).status_code == 401


def test_a_bad_cursor_is_a_400(auth_client):
    response = auth_client.get(f"{CHIPS}?cursor=nonsense")

    assert response.status_code == 400 and error_of(response)["code"] == "invalid_cursor"


# ------------------------------------------------------------------ stakes


@pytest.mark.parametrize("stake", [-1, "10", 1.5, 100_001])
def test_a_stake_is_a_whole_number_of_chips(auth_client, stake):
    response = create(auth_client, stake=stake)

    assert response.status_code == 400 and error_of(response)["code"] == "invalid"


def test_a_stake_a_player_cannot_cover_is_refused_at_create_and_at_join(players, settings):
    host, guest, partner = players(3)
    grant = settings.CHIPS_STARTING_GRANT

    refused = create(host, stake=grant + 1)
    assert refused.status_code == 409 and error_of(refused)["code"] == "insufficient_chips"

    game_id = create(host, players=2, stake=grant).json()["id"]
    # The guest has put 10 chips into another game's pot meanwhile.
    other = seated_game([guest, partner], stake=10)
    assert guest.post(f"{GAMES}/{other}/start").status_code == 200

    joined = guest.post(f"{GAMES}/{game_id}/join", {}, format="json")
    assert joined.status_code == 409 and error_of(joined)["code"] == "insufficient_chips"
    SchemaChecker(guest).check("POST", GAMES + "/{game_id}/join", 409, joined.json())


def test_the_start_takes_the_stakes_and_refuses_a_balance_spent_meanwhile(players, settings):
    grant = settings.CHIPS_STARTING_GRANT
    first, second, third = players(3)
    one = seated_game([first, second], stake=grant // 2 + 1)
    two = seated_game([second, third], stake=grant // 2 + 1)

    assert first.post(f"{GAMES}/{one}/start").status_code == 200
    refused = second.post(f"{GAMES}/{two}/start")

    assert refused.status_code == 409 and error_of(refused)["code"] == "insufficient_chips"
    assert Game.objects.get(public_id=two).status == Game.Status.LOBBY
    assert balance(third) == grant  # nothing was taken from anyone
    assert balance(second) == grant - (grant // 2 + 1)


def test_a_staked_polish_game_pays_its_pot_by_penalty_points(players, monkeypatch):
    assert "Zwycięzca otrzymuje co najmniej 75% nagrody" in SEED_POT
    monkeypatch.setattr(shuffle, "deal_source", scripted_deal_source(normal_close_decks()))
    clients = players(3)
    before = {client.user.username: balance(client) for client in clients}
    game_id = seated_game(clients, stake=100)

    view = clients[0].post(f"{GAMES}/{game_id}/start").json()

    assert view["chips"]["stake"] == 100 and view["chips"]["pot"] == 300
    seats = by_seat(clients, view)
    starter = view["to_move"]
    low, high = seats[(starter + 1) % 3], seats[(starter + 2) % 3]
    winner = seats[starter]
    assert view["chips"]["balances"] == [before[c.user.username] - 100 for c in seats]
    # The starter opens, the others draw and throw the drawn card away, the starter
    # goes out with the last three diamonds: a normal close.
    for offset, action in normal_close_turns(3):
        over = act(seats[(starter + offset) % 3], game_id, action)

    assert over["status"] == "finished"
    totals = {seat["position"]: seat["total"] for seat in over["seats"]}
    assert (totals[starter], totals[(starter + 1) % 3], totals[(starter + 2) % 3]) == (0, 34, 121)
    # The pot (300): a quarter (75) to the other players below 50 points, by how far
    # below (only the 34 is): all of it; the winner keeps the rest, 225 (75 %).
    payouts = over["chips"]["payouts"]
    assert payouts[starter] == 225
    assert payouts[(starter + 1) % 3] == 75 and payouts[(starter + 2) % 3] == 0
    assert balance(winner) == before[winner.user.username] - 100 + 225
    assert balance(low) == before[low.user.username] - 100 + 75
    assert balance(high) == before[high.user.username] - 100
    ledger = winner.get(CHIPS).json()["results"]
    assert [(row["kind"], row["amount"], row["game"]) for row in ledger[:2]] == [
        ("payout", 225, game_id),
        ("stake", -100, game_id),
    ]
    SchemaChecker(winner).check(
        "GET", GAMES + "/{game_id}", 200, winner.get(f"{GAMES}/{game_id}").json()
    )


def test_an_aborted_staked_game_gives_every_stake_back(players, deals_seeded):
    clients = players(3)
    before = [balance(client) for client in clients]
    game_id = seated_game(clients, stake=250)
    clients[0].post(f"{GAMES}/{game_id}/start")
    assert [balance(client) for client in clients] == [b - 250 for b in before]

    game_abort(game=Game.objects.get(public_id=game_id))  # the system aborts

    assert [balance(client) for client in clients] == before
    view = clients[1].get(f"{GAMES}/{game_id}").json()
    assert view["status"] == "aborted"
    assert view["chips"]["refunded"] is True and view["chips"]["payouts"] is None
    assert [
        (row["kind"], row["amount"]) for row in clients[1].get(CHIPS).json()["results"][:2]
    ] == [
        ("refund", 250),
        ("stake", -250),
    ]


def test_a_lobby_aborted_by_its_host_took_no_stakes(players):
    host, guest = players(2)
    game_id = seated_game([host, guest], stake=100)

    assert host.post(f"{GAMES}/{game_id}/abort").status_code == 200

    assert not ChipLedger.objects.filter(game__public_id=game_id).exists()
    assert balance(host) == balance(guest)


def test_the_lists_show_a_games_stake(players):
    host, guest = players(2)
    game_id = create(host, players=2, stake=40).json()["id"]

    listed = guest.get(f"{GAMES}?status=open").json()["results"]

    assert [(game["id"], game["stake"]) for game in listed] == [(game_id, 40)]
