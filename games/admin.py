"""Moderation through the Django admin.

Everything here is read-only: games, seats, deals and moves are written by
the commands of ``games.play`` alone (the move log is append-only: no add, change or
delete). What changes a game goes through a moderator command of
``games.play.moderation``, with the moderator's reason, which writes the modlog:
abort a game, adjudicate one (a game's page), hide chat lines.

Hidden information (every hand, the stock, a player's private draws) is shown only
on the page of a deal or a move, drawn as cards, to staff with the
``games.view_hidden_cards`` permission, of a game that is over or that they are not
seated at (``games.read.moderation.may_see_hidden``); every such look is recorded (a
``ModerationAccess`` row and a log line; and a modlog row, whose reason is the page's
``?reason=`` when a link gave one). No admin URL filters, searches or orders by a
hidden column, for anyone (``accounts.moderation.hidden_columns``, which names them).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.admin.base import ReadOnlyAdmin, ReadOnlyInline
from accounts.models import ModAction
from accounts.moderation import roles
from accounts.moderation.admin_actions import (
    ObjectAction,
    ObjectActionsMixin,
    Refused,
    reasoned_action,
)
from accounts.moderation.forms import ReasonForm
from accounts.moderation.modlog import modlog_record
from games.engine import PRESETS
from games.engine_words import preset_display_name
from games.models import (
    AbsentWait,
    BotRating,
    ChatMessage,
    Deal,
    Game,
    ModerationAccess,
    Move,
    PlayerSettings,
    Seat,
)
from games.notify.wording import END_REASONS, OTHER_REASON
from games.play import moderation as game_moderation
from games.read import moderation
from remi_site import formats


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


# The suits as the table draws them (static/js/cards.js): symbol, and red or black.
SUITS = {"S": ("♠", False), "H": ("♥", True), "C": ("♣", False), "D": ("♦", True)}


def _card(pair: dict[str, Any]) -> SafeString:
    """One card as the table draws it: rank and suit symbol ("10♥"), the joker a star;
    its physical id in the tooltip (the move log names cards by id)."""
    text, tooltip = str(pair["card"]), f"{pair['card']} #{pair['id']}"
    if text == "JK":
        return format_html('<span class="admin-card card-joker" title="{}">★</span>', tooltip)
    symbol, red = SUITS[text[-1]]
    colour = "card-red" if red else "card-black"
    return format_html(
        '<span class="admin-card {}" title="{}">{}{}</span>', colour, tooltip, text[:-1], symbol
    )


def _cards(pairs: list[dict[str, Any]]) -> SafeString:
    if not pairs:
        return format_html('<span class="admin-cards">{}</span>', "-")
    return format_html(
        '<span class="admin-cards">{}</span>',
        format_html_join("", "{}", ((_card(pair),) for pair in pairs)),
    )


def _is_card(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"id", "card"}


def _value(value: Any) -> SafeString:
    """A value of a move's private form: its cards drawn, anything else as text."""
    if _is_card(value):
        return _cards([value])
    if isinstance(value, list) and value and all(_is_card(item) for item in value):
        return _cards(value)
    return format_html("{}", _json(value))


class RulesFilter(admin.SimpleListFilter):
    """The rules by their names in the reader's language (the rows keep the preset's
    id): the site's presets, no query."""

    title = _("rules")
    parameter_name = "rules"
    column = "preset"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return sorted(
            ((preset, preset_display_name(preset)) for preset in PRESETS),
            key=lambda pair: pair[1],
        )

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        return queryset.filter(**{self.column: value}) if value else queryset


class BotRulesFilter(RulesFilter):
    column = "rules"


def _seat_name(seat: Seat) -> str:
    return gettext("Seat %(seat)s: %(player)s") % {
        "seat": formats.number(seat.position),
        "player": seat.user.get_username(),
    }


# ------------------------------------------------------------------ games


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "user", "status", "total", "strikes", "joined_at")
    readonly_fields = fields
    show_change_link = False


class DealInline(ReadOnlyInline):
    model = Deal
    fields = ("number", "dealer", "started_at", "finished_at", "result")
    readonly_fields = fields


class AbsentWaitInline(ReadOnlyInline):
    model = AbsentWait
    fields = ("ply", "position", "stage", "waits", "choice", "decided_by", "updated_at")
    readonly_fields = fields
    show_change_link = False


def _moderator(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


class AdjudicateForm(ReasonForm):
    loser = forms.TypedChoiceField(coerce=int, label=_("The player who loses"))

    def __init__(self, game: Game, data: Any = None) -> None:
        super().__init__(data)
        seats = game.seats.select_related("user").exclude(status=Seat.Status.OUT)
        self.fields["loser"].choices = [  # type: ignore[attr-defined]
            (seat.position, _seat_name(seat)) for seat in seats
        ]
        self.fields["loser"].help_text = gettext(
            "Their seat is out and the match ends: the lowest total among the others wins "
            "(a rated game counts for the ratings)."
        )


def _abort(request: HttpRequest, game: Game, form: forms.Form) -> str:
    game_moderation.game_abort_moderated(
        game=game, moderator=_moderator(request), reason=form.cleaned_data["reason"]
    )
    return gettext("Game %(game)s aborted.") % {"game": game.public_id}


def _winners(game: Game) -> str:
    """The winning seats with their players ("Seat 1: ana and Seat 2: marko")."""
    seats = game.seats.select_related("user").filter(position__in=game.winners)
    return formats.word_list(_seat_name(seat) for seat in seats)


def _adjudicate(request: HttpRequest, game: Game, form: forms.Form) -> str:
    ended = game_moderation.game_adjudicate(
        game=game,
        position=form.cleaned_data["loser"],
        moderator=_moderator(request),
        reason=form.cleaned_data["reason"],
    )
    return ngettext(
        "Game %(game)s decided by a moderator. The winner: %(winners)s.",
        "Game %(game)s decided by a moderator. The winners: %(winners)s.",
        len(ended.winners),
    ) % {"game": ended.public_id, "winners": _winners(ended)}


@admin.register(Game)
class GameAdmin(ObjectActionsMixin, ReadOnlyAdmin):
    list_display = (
        "public_id",
        "rules",
        "status",
        "players",
        "time_control",
        "owner",
        "ply",
        "deal_number",
        "deadline_at",
        "created_at",
    )
    list_filter = ("status", RulesFilter, "time_control", "visibility")
    search_fields = ("public_id", "owner__username", "seats__user__username")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    inlines = [SeatInline, DealInline, AbsentWaitInline]
    actions = ["abort_games"]
    object_actions = (
        ObjectAction(
            "abort",
            _("Abort"),
            roles.ABORT_OR_ADJUDICATE,
            lambda game, data: ReasonForm(data),
            _abort,
            lambda game: not game.is_over,
        ),
        ObjectAction(
            "adjudicate",
            _("Decide the game"),
            roles.ABORT_OR_ADJUDICATE,
            AdjudicateForm,
            _adjudicate,
            lambda game: game.status == Game.Status.ACTIVE,
        ),
    )
    fields = (
        "public_id",
        "rules",
        "status",
        "ended_because",
        "winner_seats",
        "players",
        "visibility",
        "owner",
        "time_control",
        "seconds_per_turn",
        "days_per_move",
        "strike_limit",
        "absent_wait_s",
        "rated",
        "ply",
        "deal_number",
        "deadline_at",
        "created_at",
        "started_at",
        "finished_at",
        "moves_link",
        "ruleset",
    )
    readonly_fields = fields

    @admin.display(description=_("rules"), ordering="preset")
    def rules(self, game: Game) -> str:
        return preset_display_name(game.preset)

    @admin.display(description=_("end reason"))
    def ended_because(self, game: Game) -> str:
        if not game.end_reason:
            return "-"
        return capfirst(str(END_REASONS.get(game.end_reason, OTHER_REASON)))

    @admin.display(description=_("winners"))
    def winner_seats(self, game: Game) -> str:
        return _winners(game) if game.winners else "-"

    @admin.display(description=_("move log"))
    def moves_link(self, game: Game) -> str:
        url = reverse("admin:games_move_changelist") + f"?game__id__exact={game.pk}"
        moves = ngettext("%(count)s move", "%(count)s moves", game.ply) % {
            "count": formats.number(game.ply)
        }
        return format_html('<a href="{}">{}</a>', url, moves)

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(roles.ABORT_OR_ADJUDICATE))

    @admin.action(description=_("Abort the selected games (no result)"), permissions=["abort"])
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        def perform(games: QuerySet[Game], form: forms.Form) -> None:
            aborted = 0
            for game in games:
                try:
                    game_moderation.game_abort_moderated(
                        game=game, moderator=_moderator(request), reason=form.cleaned_data["reason"]
                    )
                except Refused as error:
                    self.message_user(
                        request,
                        gettext("Game %(game)s: %(refusal)s")
                        % {"game": game.public_id, "refusal": formats.sentence(error.message)},
                        level=messages.WARNING,
                    )
                else:
                    aborted += 1
            if aborted:
                self.message_user(
                    request,
                    ngettext("%(aborted)s game aborted.", "%(aborted)s games aborted.", aborted)
                    % {"aborted": formats.number(aborted)},
                    level=messages.SUCCESS,
                )

        return reasoned_action(
            self,
            request,
            queryset,
            title=gettext("Abort the selected games"),
            form_class=ReasonForm,
            perform=perform,
        )


# ------------------------------------------------------------------ deals and moves


class HiddenInformationAdmin(ReadOnlyAdmin):
    """The page of one object shows its hidden information, drawn as cards, to staff
    who may see its game's hidden cards (``moderation.may_see_hidden``), recording the
    look; nobody else gets it."""

    change_form_template = "admin/games/hidden_change_form.html"

    def hidden_lines(self, request: HttpRequest, obj: Any) -> list[tuple[str, SafeString]]:
        """What this page may show a moderator, as (label, drawn) lines; each subclass
        names its own (and records the look). Nothing by default: a page that forgets
        to say shows nothing hidden rather than failing."""
        return []

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        extra_context = dict(extra_context or {})
        obj = self.get_object(request, unquote(object_id)) if request.method == "GET" else None
        if (
            obj is not None
            and self.has_view_permission(request, obj)
            and moderation.may_see_hidden(request.user, obj.game)
        ):
            extra_context["hidden"] = self.hidden_lines(request, obj)
            if extra_context["hidden"]:
                self._look_logged(request, obj)
        return super().change_view(request, object_id, form_url, extra_context)

    def _look_logged(self, request: HttpRequest, obj: Any) -> None:
        """The look in the modlog too: its reason is the one the link to the page gave
        (a report's links say which report), or what was looked at."""
        # The modlog is a record kept in English, whatever language the moderator reads.
        with translation.override("en"):
            what = f"the hidden cards of {obj}"
        reason = request.GET.get("reason", "").strip()[:200] or f"looked at {what}"
        modlog_record(
            moderator=_moderator(request),
            action=ModAction.Action.LOOK_HIDDEN,
            reason=reason,
            game=obj.game,
            details={"what": what, "path": request.path[:255]},
        )


def _seat(seat: int) -> str:
    return gettext("seat %(seat)s") % {"seat": formats.number(seat)}


def _text(value: Any) -> SafeString:
    return format_html("{}", value)


def _lines(lines: list[tuple[str, SafeString]]) -> SafeString:
    return format_html_join("", "<dt>{}</dt><dd>{}</dd>", lines)


@admin.register(Deal)
class DealAdmin(HiddenInformationAdmin):
    list_display = ("game", "number", "dealer", "started_at", "finished_at")
    list_select_related = ("game",)
    search_fields = ("game__public_id",)
    # Never the deck order, card ids, seeds or the raw snapshot: they hold every card
    # (``hidden_columns`` keeps them out of every page, list and lookup).
    fields = ("game", "number", "dealer", "started_at", "finished_at", "result", "public_view")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Deal]:
        return super().get_queryset(request).defer("deck", "card_ids", "reshuffle_seeds")

    @admin.display(description=_("public view (what a spectator sees)"))
    def public_view(self, row: Deal) -> SafeString:
        view = row.restore(row.game.engine_ruleset()).view(None).to_dict()
        counts = " · ".join(
            gettext("seat %(seat)s: %(cards)s")
            % {"seat": formats.number(seat), "cards": formats.number(n)}
            for seat, n in enumerate(view["hand_counts"])
        )
        lines = [
            (gettext("to move"), _text(_seat(view["to_move"]))),
            (gettext("cards in hand"), _text(counts)),
            (gettext("cards in the stock"), _text(formats.number(view["stock_count"]))),
            (gettext("discard (bottom first)"), _cards(view["discard"])),
        ]
        lines += [
            (
                gettext("meld of seat %(seat)s") % {"seat": formats.number(meld["owner"])},
                _cards(meld["cards"]),
            )
            for meld in view["table"]
        ]
        return format_html('<dl class="admin-deal">{}</dl>', _lines(lines))

    def hidden_lines(self, request: HttpRequest, obj: Deal) -> list[tuple[str, SafeString]]:
        state = moderation.hidden_deal_state(obj, user=request.user, path=request.path)
        lines = [
            (gettext("hand of seat %(seat)s") % {"seat": formats.number(seat)}, _cards(hand))
            for seat, hand in enumerate(state["hands"])
        ]
        lines.append((gettext("stock (top first)"), _cards(state["stock_top_first"])))
        lines.append((gettext("discard (bottom first)"), _cards(state["discard_bottom_first"])))
        lines.append((gettext("to move"), _text(_seat(state["to_move"]))))
        return lines


# The keys of a move's private form (``games.engine.events``) in words; another key is
# shown as it is stored.
PRIVATE_KEYS = {"card": pgettext_lazy("admin move", "the card drawn")}


@admin.register(Move)
class MoveAdmin(HiddenInformationAdmin):
    """The append-only log: read-only, no add, change or delete."""

    list_display = ("game", "ply", "deal", "seat", "kind", "by_server", "created_at")
    list_filter = ("kind",)
    list_select_related = ("game", "deal__game", "seat__user")
    search_fields = ("game__public_id",)
    # ``private`` (the card a player drew) is hidden information: moderators only.
    fields = (
        "game",
        "ply",
        "deal",
        "seat",
        "user",
        "kind",
        "payload",
        "public",
        "idempotency_key",
        "created_at",
    )
    readonly_fields = fields

    @admin.display(boolean=True, description=_("by server"))
    def by_server(self, move: Move) -> bool:
        return move.user_id is None

    def hidden_lines(self, request: HttpRequest, obj: Move) -> list[tuple[str, SafeString]]:
        if obj.private is None:
            return []
        private = moderation.hidden_move(obj, user=request.user, path=request.path)
        # Translators: the part of a move only its player saw, e.g. "as the mover saw it:
        # the card drawn".
        label = pgettext("admin move", "as the mover saw it: %(key)s")
        # What the mover alone saw: the keys whose value the public form lacks (the card).
        public = obj.public if isinstance(obj.public, dict) else {}
        return [
            (label % {"key": PRIVATE_KEYS.get(key, key)}, _value(value))
            for key, value in private.items()
            if public.get(key) != value
        ]


# ------------------------------------------------------------------ chat


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """Table chat, for reports: a moderator hides a line (through ``games.play.chat``),
    which takes it off every table at once; nothing is edited or deleted."""

    list_display = ("created_at", "game", "user", "text", "hidden_at", "hidden_by")
    list_filter = (("hidden_at", admin.EmptyFieldListFilter),)
    search_fields = ("user__username", "game__public_id", "text")
    list_select_related = ("user", "game", "hidden_by")
    actions = ["hide_messages"]

    def has_hide_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(roles.HIDE_CHAT))

    @admin.action(description=_("Hide the selected lines from everyone"), permissions=["hide"])
    def hide_messages(
        self, request: HttpRequest, queryset: QuerySet[ChatMessage]
    ) -> HttpResponse | None:
        def perform(lines: QuerySet[ChatMessage], form: forms.Form) -> None:
            hidden = sum(
                game_moderation.chat_hide(
                    message=line, moderator=_moderator(request), reason=form.cleaned_data["reason"]
                )
                for line in lines.select_related("user", "game")
            )
            self.message_user(
                request,
                ngettext("%(hidden)s line hidden.", "%(hidden)s lines hidden.", hidden)
                % {"hidden": formats.number(hidden)},
                level=messages.SUCCESS,
            )

        return reasoned_action(
            self,
            request,
            queryset,
            title=gettext("Hide the selected lines"),
            form_class=ReasonForm,
            perform=perform,
        )


# ------------------------------------------------------------------ players and audit


@admin.register(PlayerSettings)
class PlayerSettingsAdmin(ReadOnlyAdmin):
    list_display = ("user", "email_turns", "reminders", "vacation_days", "vacation_until")
    list_filter = ("email_turns", "reminders")
    search_fields = ("user__username",)
    list_select_related = ("user",)


@admin.register(ModerationAccess)
class ModerationAccessAdmin(ReadOnlyAdmin):
    """Who looked at hidden information, and when (append-only)."""

    list_display = ("created_at", "user", "game", "deal", "what", "page")
    list_filter = ("what",)
    search_fields = ("user__username", "game__public_id")
    list_select_related = ("user", "game", "deal__game")
    fields = ("created_at", "user", "game", "deal", "what", "page")
    readonly_fields = fields

    @admin.display(description=_("page"))
    def page(self, access: ModerationAccess) -> str:
        """A link to the page that showed the cards (the stored path is its address)."""
        if not access.path:
            return "-"
        return format_html('<a href="{}">{}</a>', access.path, gettext("open the page"))


@admin.register(BotRating)
class BotRatingAdmin(ReadOnlyAdmin):
    """A built-in bot's rating from its games against people: written only by
    ``games.bot_ratings`` (every 10 minutes), so read-only here."""

    list_display = ("user", "rules_name", "rating", "sigma", "games", "updated_at")
    list_filter = (BotRulesFilter,)
    search_fields = ("user__username",)
    list_select_related = ("user",)

    @admin.display(description=_("rules"), ordering="rules")
    def rules_name(self, row: BotRating) -> str:
        return preset_display_name(row.rules)
