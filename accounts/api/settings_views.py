"""Account endpoints for the person's settings, their email address and password, and
deleting the account. Thin: parse, call a service, answer."""

from __future__ import annotations

from django.contrib.auth import logout, password_validation, update_session_auth_hash
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import deletion, mail_limits, preferences, verification
from accounts.api.settings_serializers import (
    EmailChangeSerializer,
    EmailStateSerializer,
    PasswordChangeSerializer,
    PasswordConfirmSerializer,
    SettingsSerializer,
    SettingsUpdateSerializer,
)
from accounts.authentication import request_user
from accounts.emails import send_verification_email
from remi_site.api_errors import ApiError, error_response, error_responses

WRONG_PASSWORD = "`wrong_password`: `password` is not the account's password."
# Endpoints that check the password share the login's rate: a stolen token cannot be
# used to guess the password quickly.
PASSWORD_SCOPE = "login"


def _wrong_password() -> ApiError:
    return ApiError("wrong_password", _("That is not your password."))


class SettingsView(APIView):
    @extend_schema(
        operation_id="me_settings_retrieve",
        tags=["account"],
        summary="Your settings",
        responses={200: SettingsSerializer, **error_responses(401)},
    )
    def get(self, request: Request) -> Response:
        return Response(preferences.settings_of(request_user(request)))

    @extend_schema(
        operation_id="me_settings_update",
        tags=["account"],
        summary="Change your settings",
        description="Only the fields sent change.",
        request=SettingsUpdateSerializer,
        responses={200: SettingsSerializer, **error_responses(400, 401)},
    )
    def patch(self, request: Request) -> Response:
        user = request_user(request)
        data = SettingsUpdateSerializer(data=request.data, partial=True, context={"account": user})
        data.is_valid(raise_exception=True)
        return Response(preferences.settings_update(user=user, **data.validated_data))


class EmailView(APIView):
    throttle_scope = PASSWORD_SCOPE

    @extend_schema(
        operation_id="me_email_change",
        tags=["account"],
        summary="Change (or verify again) your email address",
        description="The new address waits (`pending_email`) until the link sent to it is "
        "opened; until then nothing else is sent to it and your current address stays. "
        "Sending the address that waits sends its link again. An empty address removes "
        "yours at once. Links are limited per client address and per account "
        "(`THROTTLE_MAIL_CLIENT`, `THROTTLE_MAIL_RECIPIENT`): past them, 429 `throttled`.",
        request=EmailChangeSerializer,
        responses={
            200: EmailStateSerializer,
            400: error_response(
                description=f"Invalid input, or {WRONG_PASSWORD}",
            ),
            **error_responses(401, 429),
        },
    )
    def post(self, request: Request) -> Response:
        data = EmailChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        if not user.check_password(data.validated_data["password"]):
            raise _wrong_password()
        if verification.asks_for_link(user=user, email=data.validated_data["email"]):
            wait = mail_limits.verification_wait(request, user=user)
            if wait is not None:
                raise exceptions.Throttled(wait, detail=mail_limits.wait_message(wait))
        profile = verification.email_change_request(user=user, email=data.validated_data["email"])
        sent = bool(profile.pending_email) and send_verification_email(request=request, user=user)
        return Response({"email": user.email, "pending_email": profile.pending_email, "sent": sent})


class PasswordView(APIView):
    throttle_scope = PASSWORD_SCOPE

    @extend_schema(
        operation_id="me_password_change",
        tags=["account"],
        summary="Change your password",
        description="Your web sessions elsewhere end; this request's session (if any) and "
        "your API tokens go on working.",
        request=PasswordChangeSerializer,
        responses={
            204: None,
            400: error_response(
                description="Invalid input (the new password breaks a rule: "
                "`details.fields.new_password`), or `wrong_password`: `old_password` is "
                "not the account's password.",
            ),
            **error_responses(401),
        },
    )
    def post(self, request: Request) -> Response:
        data = PasswordChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        if not user.check_password(data.validated_data["old_password"]):
            raise _wrong_password()
        new = data.validated_data["new_password"]
        try:
            password_validation.validate_password(new, user=user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"new_password": list(exc.messages)}) from exc
        user.set_password(new)
        user.save(update_fields=["password"])
        update_session_auth_hash(request._request, user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AccountDeleteView(APIView):
    throttle_scope = PASSWORD_SCOPE

    @extend_schema(
        operation_id="me_delete",
        tags=["account"],
        summary="Delete your account (irreversible)",
        description="Your running games are resigned and your seats in games not yet "
        "started given up; then the account is anonymised (shown as “Deleted player”, "
        "email and profile cleared) and every session and API token of it stops working. "
        "Finished games stay as they were for the other players: results, statistics and "
        "ratings.",
        request=PasswordConfirmSerializer,
        responses={
            204: None,
            400: error_response(
                description=f"Invalid input, or {WRONG_PASSWORD}",
            ),
            409: error_response(
                description="`cannot_delete`: a built-in bot's account.",
            ),
            **error_responses(401),
        },
    )
    def post(self, request: Request) -> Response:
        data = PasswordConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        try:
            deletion.account_delete(user=user, password=data.validated_data["password"])
        except deletion.WrongPassword as exc:
            raise _wrong_password() from exc
        except deletion.CannotDelete as exc:
            raise ApiError(exc.code, exc.message, status=409) from exc
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
