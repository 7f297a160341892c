"""A deal's review computed and stored: run by a Celery task (``games.tasks.deal_review``,
queued by the publisher when a deal ends, and again when someone asks for a review that
a lost task never made). Idempotent: a deal is reviewed once, whoever runs first.

The run that stores it announces it to the game's group (``review_ready`` with the deal's
number, and nothing of the review): a table waiting for it reads it through the API at
once, whose rules alone decide who sees which turns."""

from __future__ import annotations

import time

from django.conf import settings
from django.utils import timezone

from games.engine import Ruleset, action_from_dict
from games.live import outbox
from games.models import Deal, DealReview, Move, Seat
from games.read.replay import NON_ENGINE_KINDS, deal_as_dealt
from games.review.analysis import Played, review_deal


def deal_review_compute(*, game_id: str, number: int) -> DealReview | None:
    """The review of deal ``number`` of the game ``game_id``, made if not made yet; None
    when there is no such deal or it is not over (its hands are still secret)."""
    row = (
        Deal.objects.select_related("game")
        .filter(game__public_id=game_id, number=number, finished_at__isnull=False)
        .first()
    )
    if row is None:
        return None
    found = DealReview.objects.filter(deal=row).first()
    if found is not None:
        return found
    game = row.game
    ruleset = Ruleset.from_dict(game.ruleset)
    positions = dict(Seat.objects.filter(game=game).values_list("pk", "position"))
    moves = (
        Move.objects.filter(deal=row)
        .exclude(kind__in=NON_ENGINE_KINDS)
        .order_by("ply")
        .only("ply", "seat", "payload")
    )
    played = [
        Played(move.ply, positions[move.seat_id], action_from_dict(move.payload)) for move in moves
    ]
    started = time.monotonic()
    budget = float(settings.REVIEW_BUDGET_S)
    review = review_deal(
        deal_as_dealt(row, ruleset, game.players), played, deadline=started + budget
    )
    elapsed_ms = round((time.monotonic() - started) * 1000)
    stored, created = DealReview.objects.get_or_create(
        deal=row,
        defaults={
            "turns": [turn.to_dict() for turn in review.turns],
            "unexamined": review.unexamined,
            "computed_at": timezone.now(),
            "compute_ms": elapsed_ms,
        },
    )
    if created:  # a run that found it made by another sends nothing more
        outbox.game_notice_on_commit(game.public_id, {"type": "review_ready", "deal": number})
    return stored
