"""No admin URL reads a hidden column: every registered admin, every hidden column (on
its model and one relation away), every lookup an attacker would guess with, ``?q=``
and ``?o=``, as staff with every view permission but not the hidden-card one, and as
a superuser. A lookup answers 400; a search finds as much for a right guess as for a
wrong one; no ordering reaches a hidden column."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.db.models import Model, TextField
from django.db.models.functions import Cast
from django.test import Client

from accounts.models import ApiToken
from accounts.moderation.hidden_columns import (
    HIDDEN_COLUMNS,
    HiddenColumnsGuard,
    HiddenFields,
    hidden_of,
    reaches_hidden,
)
from games.engine import DrawStock
from games.models import Deal, Game, Move, PlayerSettings, PushSubscription
from games.play.act import game_act
from tests.gamekit import greedy_action

pytestmark = pytest.mark.django_db

LOOKUPS = ("", "__icontains", "__startswith", "__regex")


def registered() -> list[tuple[type[Model], admin.ModelAdmin[Any]]]:
    return list(admin.site._registry.items())


def admin_url(model: type[Model]) -> str:
    return f"/admin/{model._meta.app_label}/{model._meta.model_name}/"


def hidden_paths(model: type[Model]) -> Iterator[tuple[str, type[Model], str]]:
    """``(path, model holding the column, column)`` for every hidden column of
    ``model`` and of the models one relation away."""
    for column in sorted(hidden_of(model)):
        yield column, model, column
    reached = set()  # one relation to each model is enough (the others are alike)
    for field in model._meta.get_fields():
        related = field.related_model
        if not field.is_relation or related is None or isinstance(related, str):
            continue
        if related in reached:
            continue
        reached.add(related)
        for column in sorted(hidden_of(related)):
            yield f"{field.name}__{column}", related, column


def stored_text(model: type[Model], column: str) -> str:
    """A hidden column's value as the database prints it (what a guess is matched
    against): the longest among the rows this test made."""
    texts = (
        model._default_manager.exclude(**{f"{column}__isnull": True})
        .annotate(text=Cast(column, TextField()))
        .values_list("text", flat=True)
    )
    found = max((text for text in texts if text), key=len, default="")
    assert len(found) >= 6, f"no row holds {model._meta.label}.{column}"
    return found


def guesses(text: str, lookup: str) -> tuple[str, str]:
    """A right guess of ``text`` for ``lookup`` and a wrong one."""
    middle = text[len(text) // 3 :][:12]
    right = {
        "": text,
        "__icontains": middle,
        "__startswith": text[:8],
        "__regex": re.escape(middle),
    }[lookup]
    return right, "~qz~" + right[::-1]


@pytest.fixture
def hidden_rows(
    started: Callable[..., Any], token_factory: Callable[..., Any]
) -> tuple[Game, list[Any]]:
    """A row behind every hidden column an admin reaches: a private game whose player to
    move drew from the stock (a deal, a private draw, an invite code), a calendar key,
    a Web Push subscription and an API token (and every account's password)."""
    game, users = started(players=2, preset="serbian")
    for _ in range(3):
        game.refresh_from_db()
        deal = Deal.objects.get(game=game, number=game.deal_number).restore(game.engine_ruleset())
        action = DrawStock() if not deal.drawn else greedy_action(deal)
        game_act(game=game, user=users[deal.to_move], action=action, expected_ply=game.ply)
        if isinstance(action, DrawStock):
            break
    assert Move.objects.filter(game=game, private__isnull=False).exists()
    Game.objects.filter(pk=game.pk).update(
        visibility=Game.Visibility.PRIVATE, invite_code="K7QZP9MXW2"
    )
    PlayerSettings.objects.update_or_create(
        user=users[0], defaults={"calendar_secret": "c4l3nd4r-s3cr3t-k3y-0123456789"}
    )
    PushSubscription.objects.create(
        user=users[1],
        endpoint="https://push.example.org/send/3f9a7c1e-5b2d-4e8f",
        p256dh="BPk3QhR7mW2nX9vY4tL8sJ6dF1gH5jK0aZ3cV7bN2mQ",
        auth="tBhY3kL9pQ2wE7rZ",
    )
    token_factory(users[1])
    assert ApiToken.objects.exists()
    return game, users


@pytest.fixture(params=["staff", "superuser"])
def viewer(request: Any, user_factory: Callable[..., Any]) -> Client:
    """Staff with the view permission of every model the admin shows (not the
    hidden-card one), or a superuser."""
    person = user_factory(username=f"viewer-{request.param}")
    person.is_staff = True
    person.is_superuser = request.param == "superuser"
    person.save()
    if not person.is_superuser:
        person.user_permissions.add(
            *Permission.objects.filter(
                codename__in=[f"view_{model._meta.model_name}" for model, _ in registered()]
            )
        )
        assert not person.has_perm("games.view_hidden_cards")
    client = Client()
    client.force_login(person)
    return client


def result_count(response: Any) -> int:
    return int(response.context["cl"].result_count)


def test_every_hidden_column_names_a_column_of_its_model() -> None:
    from django.apps import apps

    for label, columns in HIDDEN_COLUMNS.items():
        model = apps.get_model(label)
        names = {field.name for field in model._meta.concrete_fields}
        assert columns <= names, (label, columns - names)


def test_every_registered_admin_and_inline_guards_the_hidden_columns() -> None:
    for model, model_admin in registered():
        assert isinstance(model_admin, HiddenColumnsGuard), model._meta.label
        for inline in model_admin.inlines:
            assert issubclass(inline, HiddenFields), (model._meta.label, inline.__name__)


def test_no_lookup_on_a_hidden_column_through_any_admin(hidden_rows: Any, viewer: Client) -> None:
    tried = 0
    for model, _ in registered():
        for path, holder, column in hidden_paths(model):
            text = stored_text(holder, column)
            for lookup in LOOKUPS:
                right, wrong = guesses(text, lookup)
                answers = [
                    viewer.get(admin_url(model), {f"{path}{lookup}": guess})
                    for guess in (right, wrong)
                ]
                statuses = [answer.status_code for answer in answers]
                # The one answer: 400 (DisallowedModelAdminLookup), right guess or wrong.
                assert statuses == [400, 400], (model._meta.label, path + lookup, statuses)
                tried += 1
    assert tried >= 150  # every hidden column, on its model and one relation away


def test_a_search_finds_no_more_for_a_right_guess_of_a_hidden_column(
    hidden_rows: Any, viewer: Client
) -> None:
    searched = 0
    for model, model_admin in registered():
        if not model_admin.search_fields:
            continue
        for _path, holder, column in hidden_paths(model):
            right, wrong = guesses(stored_text(holder, column), "__icontains")
            answers = [viewer.get(admin_url(model), {"q": guess}) for guess in (right, wrong)]
            assert [answer.status_code for answer in answers] == [200, 200], model._meta.label
            assert result_count(answers[0]) == result_count(answers[1]), (
                model._meta.label,
                column,
            )
            searched += 1
    assert searched >= 10


def test_no_ordering_reaches_a_hidden_column(hidden_rows: Any, viewer: Client) -> None:
    for model, model_admin in registered():
        columns = len(model_admin.list_display) + 2
        for order in [str(index) for index in range(columns)] + ["-0", "-1", "0.1.2.3.4"]:
            response = viewer.get(admin_url(model), {"o": order})
            assert response.status_code == 200, (model._meta.label, order)
            ordering = response.context["cl"].queryset.query.order_by
            assert not any(
                isinstance(field, str) and reaches_hidden(model, field) for field in ordering
            ), (model._meta.label, order, ordering)


def test_filters_on_visible_columns_still_work(hidden_rows: Any, viewer: Client) -> None:
    game, _users = hidden_rows

    draws = viewer.get("/admin/games/move/", {"kind": "draw"})
    of_game = viewer.get("/admin/games/move/", {"game__id__exact": game.pk})
    searched = viewer.get("/admin/games/deal/", {"q": game.public_id})

    assert (draws.status_code, of_game.status_code, searched.status_code) == (200, 200, 200)
    assert result_count(draws) >= 1
    assert result_count(of_game) == Move.objects.filter(game=game).count()
    assert result_count(searched) == 1
