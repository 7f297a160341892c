"""The OpenAPI schema's generator: drf-spectacular's, plus the error responses that
every operation of a kind can give, so that no view has to remember them.

- a JSON body: 400 (malformed, too deep, a field of the wrong type), 413, 415;
- authentication: 401 (a missing, bad, expired or revoked token), and 403 for unsafe
  methods (a session client's CSRF failure);
- a path parameter: 404;
- throttles: 429;
- every operation: 503 when the database does not answer (``remi_site.views``);
- a token's scope: the scope the operation needs (``x-token-scope`` and a sentence in
  the description), and 403 ``insufficient_scope`` for a token without it.

A view's own description of one of these statuses (``extend_schema(responses=…)``)
is kept.
"""

from __future__ import annotations

import re
from typing import Any

from django.urls import Resolver404, resolve
from drf_spectacular import openapi
from rest_framework.authentication import SessionAuthentication

from accounts.scopes import TokenScopePermission, scope_needed
from remi_site.api_errors import error_responses

_PATH_PARAMETER = re.compile(r"\{[^}]+\}")

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
        self._document_scope(operation)
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _document_scope(self, operation: dict[str, Any]) -> None:
        if not any(isinstance(p, TokenScopePermission) for p in self.view.get_permissions()):
            return
        try:
            # Any value fits the path's parameters for finding the URL's name.
            match = resolve(_PATH_PARAMETER.sub("1", self.path))
        except Resolver404:
            return
        scope = scope_needed(match.view_name, self.method)
        operation["x-token-scope"] = scope
        sentence = f"Token scope: `{scope}`."
        description = operation.get("description", "")
        operation["description"] = f"{description}\n\n{sentence}" if description else sentence
        refusal = (
            f"`insufficient_scope`: the API token lacks the `{scope}` scope "
            "(`details.scope` names it)."
        )
        responses = operation["responses"]
        if "403" in responses:
            responses["403"]["description"] = f"{responses['403']['description']} {refusal}"
        else:
            responses["403"] = self._get_response_for_code(error_responses(403)[403], "403")
            responses["403"]["description"] = refusal

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
        statuses.append(503)
        return statuses
