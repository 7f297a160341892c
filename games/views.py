"""Web pages of the games app: thin shells around the public REST API.

The lobby and the table are rendered by the browser from what ``/api/v1/`` returns
(``static/js/lobby.js``, ``static/js/table/``), so a page never shows more than
the API gives its viewer. Pages only find the game (404 for unknown and others'
private games, as the API does) and list the viewer's games.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe

from accounts.authentication import request_user
from accounts.models import BUILTIN_BOTS
from accounts.moderation import at_table
from games.api import review_views
from games.engine import PRESETS
from games.engine_words import preset_display_name
from games.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed
from games.live import connections
from games.models import EXTRA_TIME_MAX_DAYS, Game
from games.notify import calendar, links, preferences, push, tokens, wording
from games.notify.forms import NotificationSettingsForm
from games.read import bot_strength, bots, catalogue, game_lists, queue, reviews, selectors
from games.read.challenges import cancelled_for_account_rows
from games.read.list_rows import list_rows
from games.read.score_sheet import score_sheet
from remi_site import zone_names
from remi_site.formats import sentence

# The tabs of "my games": API status filter -> label.
LIST_TABS = {
    "my_turn": pgettext_lazy("my games tab", "Your turn"),
    "active": pgettext_lazy("my games tab", "Playing"),
    "lobby": pgettext_lazy("my games tab", "Waiting to start"),
    "finished": pgettext_lazy("my games tab", "Finished"),
}
# The time controls "my games" may be narrowed to: filter value -> label.
LIST_TIME_CONTROLS = {
    "live": pgettext_lazy("time control", "Live"),
    "correspondence": pgettext_lazy("time control", "Correspondence"),
}
LIST_LIMIT = 50


def _bots() -> list[dict[str, Any]]:
    """The bot accounts one may seat in a new game (``bots`` of the create call)."""
    users = (
        get_user_model()
        .objects.filter(BUILTIN_BOTS, is_active=True)
        .select_related("profile")
        .order_by("profile__bot_level", "username")
    )
    return [
        selectors.user_card(user)
        | {
            "avatar": user.profile.avatar,
            "bio": _(user.profile.bio) if user.profile.bio else "",
            # The level's difficulty, as the bots page names it (games.read.bot_strength).
            "difficulty": bot_strength.level_name(user.profile.bot_level),
        }
        for user in users
    ]


@login_required
def play(request: HttpRequest) -> HttpResponse:
    """The lobby: create a game (or play bots at once), join an open one or an invite.
    The presets come with the page, as the API lists them: fetched afterwards, they
    pushed the form down under a reader's cursor."""
    return render(
        request, "games/play.html", {"bots": _bots(), "presets": catalogue.ruleset_presets()}
    )


@require_safe
def bot_directory(request: HttpRequest) -> HttpResponse:
    """Every bot, built in and bot accounts, with their ratings and who is connected:
    what ``GET /api/v1/bots`` lists."""
    listed = bots.bot_directory(connected_now=connections.connected_now)
    for bot in listed:
        # The built-in bots' texts are the site's own, translated; an account's are its own.
        if bot["kind"] == bots.BUILTIN and bot["bio"]:
            bot["bio"] = _(bot["bio"])
    presets = [(name, preset_display_name(name)) for name in PRESETS]
    labels = dict(presets)
    ladder = bot_strength.ladder()
    for bot in listed:
        if bot["kind"] == bots.BUILTIN and bot["bot_level"] in ladder:
            bot["difficulty"] = ladder[bot["bot_level"]]["name"]
        for rating in bot["ratings"]:  # (its column's heading, for a phone's stacked rows)
            rating["label"] = labels[rating["rules"]]
    context = {"bots": listed, "presets": presets, "ladder": ladder.values()}
    return render(request, "games/bots.html", context)


@login_required
def game_list(request: HttpRequest) -> HttpResponse:
    """The viewer's games, by status."""
    user = request_user(request)
    tab = request.GET.get("status", "active")
    if tab not in LIST_TABS:
        tab = "active"
    time_control = request.GET.get("time_control", "")
    if time_control not in LIST_TIME_CONTROLS:
        time_control = ""
    filters = {"mine": True, "status": tab, "time_control": time_control}
    games = game_lists.game_list(user=user, filters=filters)
    if tab == "active":
        games = queue.by_urgency(games, user)
    elif tab == "my_turn":
        games = queue.turns_by_deadline(games)
    elif tab in game_lists.ENDED_STATUSES:  # the most recently ended LIST_LIMIT
        games = game_lists.newest_ended_first(games)
    else:  # the page shows the most recent LIST_LIMIT
        games = games.order_by("-created_at", "-pk")
    summaries = [selectors.game_summary(game, user) for game in games[:LIST_LIMIT]]
    context = {
        "tabs": LIST_TABS,
        "tab": tab,
        "time_controls": LIST_TIME_CONTROLS,
        "time_control": time_control,
        "games": list_rows(summaries),
        "limit": LIST_LIMIT,
        # Challenges the server cancelled because an account was banned, deleted or
        # closed (or playbanned): the page says why they went.
        "challenges_cancelled": cancelled_for_account_rows(user=user),
    }
    return render(request, "games/list.html", context)


@login_required
@require_safe
def next_game(request: HttpRequest) -> HttpResponse:
    """The next game where it is the viewer's turn (the most urgent deadline first), or
    "my games" when none waits."""
    found = queue.next_game_id(request_user(request))
    if found is None:
        messages.info(request, _("No game is waiting for your move."))
        return redirect("games:list")
    return redirect("games:detail", game_id=found)


def detail(request: HttpRequest, game_id: str) -> HttpResponse:
    """The table. A private game is found by its players, or by anyone holding its
    invite link (``?invite=<code>``; the join call checks the code). A public game is
    watched without an account too."""
    user = request.user
    invite = request.GET.get("invite", "").strip()[:32]
    if invite and not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        if invite:
            game = selectors.game_get_for_join(public_id=game_id, user=user, invite_code=invite)
        else:
            game = selectors.game_get(public_id=game_id, user=user)
    except GameNotFound:
        if not user.is_authenticated:
            # Perhaps a private game of theirs: logging in may show it.
            return redirect_to_login(request.get_full_path())
        raise Http404(_("no such game")) from None
    context: dict[str, Any] = {
        "game_id": game.public_id,
        "invite": invite,
        "preset": game.preset,
        "extra_day_choices": range(1, EXTRA_TIME_MAX_DAYS + 1),
    }
    # A moderator's controls (None, and nothing drawn, for everyone else).
    context["moderation"] = at_table.table_moderation(
        viewer=user, game=game, report_id=request.GET.get("report", "")[:12]
    )
    if game.status == Game.Status.FINISHED:
        # The finished game's score sheet is on the page itself (the table's script
        # keeps it in step while the game runs).
        seats = list(selectors.seats_with_players().filter(game=game))
        context["score_sheet"] = score_sheet(game, seats)
    return render(request, "games/table.html", context)


@require_safe
def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    """A finished game move by move with every hand face up (drawn by static/js/replay.js
    from ``GET /api/v1/games/{id}/replay``). Found as the table is; a game not finished
    yet has no replay: its table is shown instead."""
    try:
        game = selectors.game_get(public_id=game_id, user=request.user)
    except GameNotFound:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise Http404(_("no such game")) from None
    if game.status != game.Status.FINISHED:
        return redirect("games:detail", game_id=game.public_id)
    context = {"game_id": game.public_id, "preset": game.preset}
    return render(request, "games/replay.html", context)


@require_safe
def deal_review(request: HttpRequest, game_id: str, number: int) -> HttpResponse:
    """A deal's review beside the score sheet (``games.read.reviews``): the viewer's own
    turns while the game is played, everyone's once it is over; "being prepared" until
    its background task has made it."""
    try:
        review = review_views.deal_review(request.user, game_id, number)
    except GameNotFound:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise Http404(_("no such game")) from None
    except (NotAllowed, Conflict) as refused:
        if refused.code == reviews.DEAL_NOT_OVER:
            return redirect("games:detail", game_id=game_id)
        context = {"game_id": game_id, "number": number, "refused": refused}
        status = 403 if isinstance(refused, NotAllowed) else 200
        return render(request, "games/review.html", context, status=status)
    context = {"game_id": game_id, "number": number, "review": review}
    return render(request, "games/review.html", context)


# ------------------------------------------------------------------ notifications


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: HttpRequest) -> HttpResponse:
    """Which emails, when reminders come, the time zone, Web Push in this browser, the
    calendar feed, the muted games. Three forms post here (``action``): the choices,
    a new calendar URL, unmuting a game."""
    user = request_user(request)
    prefs = preferences.preferences_for(user)
    form = NotificationSettingsForm(prefs=prefs)
    if request.method == "POST":
        action = request.POST.get("action", "save")
        if action == "calendar_reset":
            preferences.calendar_reset(user=user)
            messages.success(request, _("Your calendar feed has a new address."))
            return redirect("games:notification-settings")
        if action == "unmute":
            preferences.game_unmute(user=user, game_id=request.POST.get("game", "")[:16])
            messages.success(request, _("You will hear about that game again."))
            return redirect("games:notification-settings")
        form = NotificationSettingsForm(request.POST, prefs=prefs)
        if form.is_valid():
            try:
                preferences.preferences_update(user=user, changes=form.cleaned_data)
            except InvalidRequest as error:
                form.add_error(None, sentence(error.message))
            else:
                messages.success(request, _("Your notification settings are saved."))
                return redirect("games:notification-settings")
    muted = [
        {"id": game.public_id, "preset": wording.preset_label(game.preset)}
        for game in preferences.muted_games(user)
    ]
    context = {
        "form": form,
        "time_zone": prefs.time_zone,
        "zone_aliases": zone_names.aliases(),
        "calendar_url": links.calendar_url(preferences.calendar_secret_for(user)),
        "push_public_key": push.public_key(),
        "muted": muted,
    }
    return render(request, "games/notification_settings.html", context)


@csrf_exempt  # mail clients post here (RFC 8058); the signed token is the authority
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """A signed unsubscribe link, without logging in: GET asks to confirm (a link
    checker following it changes nothing), POST turns the messages off (the
    confirmation, or a mail client's one-click ``List-Unsubscribe-Post``)."""
    wish = tokens.unsubscribe_read(token)
    if wish is None:
        raise Http404(_("no such link"))
    context = {"what": wording.unsubscribe_label(wish.kind), "game_id": wish.game_id}
    if request.method == "POST":
        if not preferences.unsubscribe_apply(wish):
            raise Http404(_("no such link"))
        return render(request, "games/unsubscribe.html", {**context, "done": True})
    return render(request, "games/unsubscribe.html", {**context, "done": False})


@require_safe
def calendar_feed(request: HttpRequest, secret: str) -> HttpResponse:
    """A player's deadlines as an ICS feed, for calendar apps (the URL is the secret)."""
    body = calendar.calendar_feed(secret=secret, now=timezone.now())
    if body is None:
        raise Http404(_("no such calendar"))
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="remi-deadlines.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response
