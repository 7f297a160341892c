"""One error shape for the whole API.

Every error response, whatever raised it, has the body::

    {"error": {"code": "not_found", "message": "Not found.", "details": {}}}

``code`` is stable and machine-readable (an engine error's own code, such as
``adjacent_jokers``, or DRF's: ``invalid``, ``not_authenticated``,
``permission_denied``, ``not_found``, ``throttled``, …); ``message`` is for people;
``details`` holds structured extras (``fields`` for validation errors,
``retry_after`` for throttling, ``current_ply`` for a stale move).

Raise :class:`ApiError` for errors of your own; document responses with
:func:`error_responses`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response


class ApiError(exceptions.APIException):
    """An API error with a stable code, an HTTP status and optional details.

    >>> raise ApiError("stale_ply", "Moved on.", status=409, details={"current_ply": 12})
    """

    status_code: int = status.HTTP_400_BAD_REQUEST
    default_code = "error"
    default_detail = "The request could not be processed."

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail=message, code=code)
        if status is not None:
            self.status_code = status
        self.code = code
        self.message = message
        self.details = dict(details or {})
        self.headers = dict(headers or {})


class PayloadTooLarge(ApiError):
    """A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: Django refuses to read it."""

    def __init__(self) -> None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        super().__init__(
            "payload_too_large",
            ngettext(
                "The request body is larger than %(limit)s byte.",
                "The request body is larger than %(limit)s bytes.",
                limit,
            )
            % {"limit": limit},
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
            details={"max_bytes": limit},
        )


def error_body(code: str, message: str, details: Mapping[str, Any] | None = None) -> dict[str, Any]:
    # str(): a message marked for translation is said in the request's language here.
    return {"error": {"code": code, "message": str(message), "details": dict(details or {})}}


def error_json_response(
    code: str, message: str, *, status: int, details: Mapping[str, Any] | None = None
) -> JsonResponse:
    """The error shape for plain Django views (404/500 handlers, lockouts)."""
    return JsonResponse(error_body(code, message, details), status=status)


def _first_message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    if isinstance(detail, dict) and detail:
        return _first_message(next(iter(detail.values())))
    return str(detail)


def _first_code(codes: Any, fallback: str) -> str:
    if isinstance(codes, str):
        return codes
    if isinstance(codes, list) and codes:
        return _first_code(codes[0], fallback)
    return fallback


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler (which also maps Http404 and PermissionDenied), reshaped."""
    # Imported here: rest_framework.views loads the parser classes, which raise ApiError.
    from rest_framework.views import exception_handler as drf_exception_handler

    if isinstance(exc, RequestDataTooBig):
        # Django's own answer would be its HTML 400 page.
        exc = PayloadTooLarge()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # an unexpected exception: Django's handler500 answers

    if isinstance(exc, ApiError):
        body = error_body(exc.code, exc.message, exc.details)
        for name, value in exc.headers.items():
            response[name] = value
    elif isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        if isinstance(detail, dict):
            # Field errors: {"fields": {"name": ["This field is required."], …}}
            body = error_body("invalid", _("The request is not valid."), {"fields": response.data})
        else:
            # A validation error about the request as a whole: its own code.
            body = error_body(_first_code(exc.get_codes(), "invalid"), _first_message(detail), {})
    elif isinstance(exc, exceptions.APIException):
        details: dict[str, Any] = {}
        wait = getattr(exc, "wait", None)  # Throttled: seconds until allowed again
        if isinstance(exc, exceptions.Throttled) and wait is not None:
            details["retry_after"] = math.ceil(wait)
        if isinstance(exc.detail, dict | list):
            details["errors"] = response.data
        code = _first_code(exc.get_codes(), exc.default_code)
        body = error_body(code, _first_message(exc.detail), details)
    else:  # pragma: no cover - DRF only answers for APIException
        return response

    response.data = body
    return response


# ------------------------------------------------------------------ OpenAPI


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable machine-readable code, e.g. `not_found`.")
    message = serializers.CharField(help_text="Human-readable explanation.")
    details = serializers.DictField(
        help_text="Structured extras: `fields` for validation errors, `retry_after` when "
        "throttled or unavailable, `current_ply` for a stale move (`stale_ply`: the game's "
        "ply now)."
    )


class ErrorSerializer(serializers.Serializer[Any]):
    error = ErrorDetailSerializer()


_DESCRIPTIONS = {
    400: "Invalid request: `invalid` with `details.fields` (a field missing, out of range or "
    "of the wrong JSON type), `parse_error` (malformed JSON), `json_too_deep` (nested deeper "
    "than `details.max_depth`), or a specific code.",
    401: "`not_authenticated`: no credentials; `authentication_failed`: the token is "
    "wrong, expired or revoked.",
    403: "Authenticated but not allowed (or CSRF failure for session clients).",
    404: "No such resource, or not visible to you.",
    409: "Conflict with the current state (e.g. a stale `ply`).",
    413: "`payload_too_large`: the body is larger than the site's limit (`details.max_bytes`).",
    415: "`unsupported_media_type`: the body is not `application/json`.",
    429: "Too many requests; see the `Retry-After` header.",
    503: "`service_unavailable`: the database did not answer; send the same request again "
    "after `Retry-After` seconds (`details.retry_after`).",
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """OpenAPI responses in the error shape, for ``extend_schema(responses=...)``."""
    return {
        code: OpenApiResponse(ErrorSerializer, description=_DESCRIPTIONS.get(code, "Error."))
        for code in statuses
    }


def error_response(description: str) -> OpenApiResponse:
    """One OpenAPI error response in the error shape, with the codes it may carry."""
    return OpenApiResponse(ErrorSerializer, description=description)
