"""Middleware of the site itself."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.contrib.auth import logout
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from accounts.models import Sanction
from accounts.moderation.appeals import appeal_token
from accounts.moderation.record import warnings_unread
from accounts.moderation.selectors import ban_in_force, sanction_details, sanction_message
from remi_site.api_errors import error_json_response


class SyncMiddlewareChain:
    """Last in ``MIDDLEWARE``, synchronous only: under Django's own ASGI handler, Django
    then runs the whole middleware chain in one worker thread. (The site's handler,
    ``remi_site.asgi_http``, builds the synchronous chain anyway; this keeps Django's
    handler, e.g. in tests that use it, from the async adapters.)

    Django runs each middleware in the mode of the handler below it. With an
    async-capable middleware (axes) innermost, every ``MiddlewareMixin`` middleware
    ran in async mode, calling its ``process_request``/``process_response`` through
    ``sync_to_async``: a dozen thread hops per request, ~2 ms of CPU. The views are
    synchronous (DRF) anyway, so one hop into a thread at the top is all they need.
    """

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)


class RefuseNul:
    """A NUL character in the path is a 404, and in the query string a 400, before any
    view sees it.

    No id, username, invite code or filter's value holds one, and PostgreSQL cannot even
    compare a text with one: the lookup itself fails, wherever a view or the admin puts
    a query parameter into a filter (``/rules/serbian/?…``, an admin list's
    ``?status__exact=``). Raised here, the ``Http404`` and ``BadRequest`` become the
    site's answers: the API's JSON error under ``/api/``, a page elsewhere. A form's
    fields need no such guard: Django's and DRF's text fields refuse a NUL themselves.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info:
            raise Http404("The path contains a NUL character.")
        query = request.META.get("QUERY_STRING", "")
        if "%00" in query or "\x00" in query:
            raise BadRequest("The query string contains a NUL character.")
        return self.get_response(request)


class RefuseBannedSessions:
    """A banned account's session ends at its next request: it is logged out and told
    why and until when (the API's JSON error ``banned`` under ``/api/``, a page
    elsewhere). After AuthenticationMiddleware; requests without a session (API
    tokens, whose own check is ``accounts.authentication``) cost nothing here."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ban = ban_in_force(user_id=user.pk)
            if ban is not None:
                logout(request)
                return self._refusal(request, ban)
        return self.get_response(request)

    @staticmethod
    def _refusal(request: HttpRequest, ban: Sanction) -> HttpResponse:
        message = sanction_message(ban)
        if request.path_info.startswith("/api/"):
            details = sanction_details(ban)
            return error_json_response("banned", message, status=403, details=details)
        appeal_url = reverse("moderation:appeal-by-link", args=[appeal_token(ban)])
        context = {"ban": ban, "message": message, "appeal_url": appeal_url}
        return render(request, "moderation/banned.html", context, status=403)


class ShowUnreadWarning:
    """A signed-in player with a moderator's warning they have not acknowledged is
    taken to it at their next page (a browser's navigation to a page: never the API,
    a script, a page's background requests or a form's POST), and comes back where they
    were once they have acknowledged it."""

    # Paths that never show the warning: the warning page itself, the API, signing
    # out, and what a page loads.
    PASS = (
        "/moderation/warning/",
        "/moderation/sanctions/",
        "/api/",
        "/accounts/logout/",
        "/static/",
        "/media/",
    )

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            request.method == "GET"
            and user is not None
            and user.is_authenticated
            and not request.path_info.startswith(self.PASS)
            and self._navigation(request)
            and warnings_unread(user_id=user.pk).exists()
        ):
            target = reverse("moderation:warning")
            return HttpResponseRedirect(f"{target}?{urlencode({'next': request.get_full_path()})}")
        return self.get_response(request)

    @staticmethod
    def _navigation(request: HttpRequest) -> bool:
        """Whether the request loads a page: what browsers say in ``Sec-Fetch-Dest``,
        else (older clients) an ``Accept`` that asks for HTML."""
        destination = request.headers.get("Sec-Fetch-Dest")
        if destination:
            return destination == "document"
        return "text/html" in request.headers.get("Accept", "")
