"""Site-level views: the landing page, /healthz and the error pages."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from remi_site import health
from remi_site.api_errors import error_json_response
from remi_site.outage import DATABASE_DOWN, RETRY_AFTER_S


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and Redis answer and the worker's and beat's heartbeats
    are fresh; otherwise 503, with the reasons in the body."""
    healthy, body = health.report()
    return JsonResponse(body, status=200 if healthy else 503)


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _wants_json(request):
        return error_json_response("not_found", _("Not found."), status=404)
    return render(request, "404.html", status=404)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _wants_json(request):
        return error_json_response("bad_request", _("The request could not be read."), status=400)
    # Without the request's context, as the 500 page: a request refused for its Host
    # header would be refused again by anything that asks for the host.
    return HttpResponse(loader.get_template("400.html").render(), status=400)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 handler, which Django calls inside the ``except`` that caught the error,
    so ``sys.exc_info()`` names it (asgiref carries it into the handler's thread)."""
    # The language the locale middleware chose, if it ran; else the cookie's or
    # Accept-Language's: what failed may be the account lookup that would choose it.
    language = getattr(request, "LANGUAGE_CODE", None)
    with translation.override(language or translation.get_language_from_request(request)):
        if isinstance(sys.exc_info()[1], DATABASE_DOWN):
            return _unavailable(request)
        if _wants_json(request):
            return error_json_response("server_error", _("Internal server error."), status=500)
        # Rendered without the request's context processors: what failed may fail again.
        return HttpResponse(loader.get_template("500.html").render(), status=500)


def _unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: the request was sound, the database did not answer."""
    response: HttpResponse
    if _wants_json(request):
        message = _("The site cannot reach its database just now. Try again in a moment.")
        details = {"retry_after": RETRY_AFTER_S}
        response = error_json_response("service_unavailable", message, status=503, details=details)
    else:
        page = loader.get_template("503.html").render({"retry_after": RETRY_AFTER_S})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response
