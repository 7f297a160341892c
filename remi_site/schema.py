"""The OpenAPI schema's generator: drf-spectacular's, plus the error responses that
every operation of a kind can give, so that no view has to remember them.

- a JSON body: 400 (malformed, too deep, a field of the wrong type), 413, 415;
- authentication: 401 (a missing, bad, expired or revoked token), and 403 for unsafe
  methods (a session client's CSRF failure);
- a path parameter: 404;
- throttles: 429.

A view's own description of one of these statuses (``extend_schema(responses=…)``)
is kept.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from rest_framework.authentication import SessionAuthentication

from remi_site.api_errors import error_responses

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
UNSAFE_METHODS = BODY_METHODS | {"DELETE"}


class AutoSchema(openapi.AutoSchema):
    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation["responses"]
        for status, response in error_responses(*self._common_error_statuses()).items():
            if str(status) not in responses:
                responses[str(status)] = self._get_response_for_code(response, str(status))
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _common_error_statuses(self) -> list[int]:
        statuses: list[int] = []
        if self.method in BODY_METHODS and self.get_request_serializer() is not None:
            statuses += [400, 413, 415]
        authenticators = self.view.get_authenticators()
        if authenticators:
            statuses.append(401)
            if self.method in UNSAFE_METHODS and any(
                isinstance(auth, SessionAuthentication) for auth in authenticators
            ):
                statuses.append(403)
        if "{" in self.path:
            statuses.append(404)
        if self.view.get_throttles():
            statuses.append(429)
        return statuses
