"""Account endpoints: signup, login/logout, the profile (/me), bot upgrade, public
profiles and ratings (the leaderboard), personal API tokens.

Thin: parse with an input serializer, call a service, answer with an output serializer.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import authenticate, login, logout
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.api.serializers import (
    LeaderboardFilterSerializer,
    LeaderboardSerializer,
    LoginResultSerializer,
    LoginSerializer,
    MeSerializer,
    PlayerStatsSerializer,
    ProfileUpdateSerializer,
    SignupSerializer,
    TokenCreatedSerializer,
    TokenCreateSerializer,
    TokenSerializer,
)
from accounts.authentication import AccountBanned, request_user
from accounts.bot_sessions import BOT_SIGN_IN_CODE, BOT_SIGN_IN_MESSAGE, is_bot_account
from accounts.emails import send_verification_email
from accounts.lockout import LOCKED_OUT_CODE, LOCKED_OUT_MESSAGE, retry_after_seconds
from accounts.models import ApiToken
from accounts.moderation.selectors import ban_in_force
from games import ratings
from remi_site.api_errors import ApiError, error_response, error_responses
from remi_site.pagination import (
    CURSOR_PARAMETERS,
    LIST_ERRORS,
    CursorPagination,
    SequencePagination,
    page_serializer,
)

# A deactivated account: the password is right, the account may not sign in.
ACCOUNT_CLOSED_CODE = "account_closed"

TokenPageSerializer = page_serializer("TokenPageSerializer", TokenSerializer(many=True))


class TokenPagination(CursorPagination):
    ordering = ("-created", "-id")


SESSION_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _token_payload(token: Any, raw: str) -> dict[str, Any]:
    data: dict[str, Any] = dict(TokenSerializer(token).data)
    data["token"] = raw
    return data


def _expiry(days: int | None) -> timedelta | None:
    return None if days is None else timedelta(days=days)


class SignupView(APIView):
    authentication_classes: list[type] = []
    permission_classes = [permissions.AllowAny]
    throttle_scope = "signup"

    @extend_schema(
        operation_id="auth_signup",
        tags=["auth"],
        summary="Create an account",
        description="Creates the account and signs the caller in (session cookie). "
        "To use the API with a token, then call `POST /auth/login` with `token_name`. "
        "An `email` waits as `pending_email` until the link sent to it is opened.",
        request=SignupSerializer,
        responses={201: MeSerializer, **error_responses(400, 429)},
    )
    def post(self, request: Request) -> Response:
        data = SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = services.user_signup(**data.validated_data, language=translation.get_language())
        except services.UsernameTaken as exc:
            raise ApiError(exc.code, exc.message) from exc
        login(request._request, user, backend=SESSION_BACKEND)
        send_verification_email(request=request, user=user)
        return Response(MeSerializer(user).data, status=status.HTTP_201_CREATED)


class LoginView(APIView):
    authentication_classes: list[type] = []
    permission_classes = [permissions.AllowAny]
    throttle_scope = "login"

    @extend_schema(
        operation_id="auth_login",
        tags=["auth"],
        summary="Sign in (session), optionally creating an API token",
        description="Starts a session (cookie). With `token_name`, also creates a personal "
        "API token and returns it once. Failed attempts are counted: after too many for "
        "one username from one address, logins are refused with 429 `locked_out` for a while.",
        request=LoginSerializer,
        responses={
            200: LoginResultSerializer,
            400: error_response(
                description="Invalid input, or `invalid_credentials`.",
            ),
            403: error_response(
                description="`bot_account`: a bot account signs in with its API tokens only. "
                "`banned`: the account is banned (the reason and the end in `details`); no "
                "session or token is given. `account_closed`: the password is right but the "
                "account was deactivated. (A deleted account has no password left: its "
                "login fails with `invalid_credentials`.)",
            ),
            429: error_response(
                description="`throttled`, or `locked_out` after repeated failures.",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = LoginSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        http_request = request._request  # django-axes tracks attempts on the HttpRequest
        user = authenticate(
            http_request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        if user is None:
            if is_bot_account(data.validated_data["username"]):
                raise ApiError(BOT_SIGN_IN_CODE, BOT_SIGN_IN_MESSAGE, status=403)
            if getattr(http_request, "axes_locked_out", False):
                seconds = retry_after_seconds()
                raise ApiError(
                    LOCKED_OUT_CODE,
                    str(LOCKED_OUT_MESSAGE),
                    status=429,
                    details={"retry_after": seconds},
                    headers={"Retry-After": str(seconds)},
                )
            if selectors.closed_account_with_password(
                username=data.validated_data["username"], password=data.validated_data["password"]
            ):
                raise ApiError(ACCOUNT_CLOSED_CODE, _("This account is closed."), status=403)
            raise ApiError("invalid_credentials", _("Wrong username or password."))
        ban = ban_in_force(user_id=user.pk)
        if ban is not None:
            # Neither a session nor a token for a banned account.
            raise AccountBanned(ban)
        login(http_request, user)
        token = None
        if data.validated_data.get("token_name"):
            token = self._create_token(user, data.validated_data)
        return Response({"user": MeSerializer(user).data, "token": token})

    @staticmethod
    def _create_token(user: Any, validated: dict[str, Any]) -> dict[str, Any]:
        try:
            token, raw = services.token_create(
                user=user,
                name=validated["token_name"],
                expires_in=_expiry(validated.get("token_expires_in_days")),
                scopes=validated.get("token_scopes"),
            )
        except services.TooManyTokens as exc:
            raise ApiError(exc.code, exc.message) from exc
        return _token_payload(token, raw)


class LogoutView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="auth_logout",
        tags=["auth"],
        summary="End the session",
        description="Ends the web session. API tokens stay valid: revoke them with "
        "`DELETE /tokens/{id}`.",
        request=None,
        responses={204: None, **error_responses(403)},
    )
    def post(self, request: Request) -> Response:
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    @extend_schema(
        operation_id="me_retrieve",
        tags=["account"],
        summary="Your account and profile",
        responses={200: MeSerializer, **error_responses(401)},
    )
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(request_user(request)).data)

    @extend_schema(
        operation_id="me_update",
        tags=["account"],
        summary="Change your profile",
        request=ProfileUpdateSerializer,
        responses={200: MeSerializer, **error_responses(400, 401)},
    )
    def patch(self, request: Request) -> Response:
        user = request_user(request)
        data = ProfileUpdateSerializer(data=request.data, partial=True, context={"account": user})
        data.is_valid(raise_exception=True)
        user.profile = services.profile_update(user=user, **data.validated_data)
        return Response(MeSerializer(user).data)


class MeBotView(APIView):
    @extend_schema(
        operation_id="me_upgrade_to_bot",
        tags=["account"],
        summary="Turn your account into a bot account (irreversible)",
        description="For programs that play: the account becomes an external bot account "
        "(`is_bot` true, `bot_level` null), shown as a bot at every table. It plays through "
        "this API with its tokens, like a person and under the same deadlines; the server "
        "never moves for it. Only an account that has never played a game may be "
        "upgraded. There is no way back. A bot account never signs in with its password "
        "(no web session): make the upgrade with an API token, and keep that token.",
        request=None,
        responses={
            200: MeSerializer,
            403: error_response(
                description="`token_required`: asked by a web session, not with an API token.",
            ),
            409: error_response(
                description="`already_bot`, or `account_has_games` (the account has played).",
            ),
            **error_responses(401),
        },
    )
    def post(self, request: Request) -> Response:
        user = request_user(request)
        if not isinstance(request.auth, ApiToken):
            # The bot could never sign in again with this session's password.
            raise ApiError(
                "token_required",
                _(
                    "Upgrade with an API token (Authorization: Bearer <token>): a bot "
                    "account has no web session, only its tokens."
                ),
                status=403,
            )
        try:
            user.profile = services.account_upgrade_to_bot(user=user)
        except (services.AlreadyBot, services.AccountHasGames) as exc:
            raise ApiError(exc.code, exc.message, status=409) from exc
        return Response(MeSerializer(user).data)


class UserDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="users_retrieve",
        tags=["account"],
        summary="A player's public profile, ratings, statistics and recent games",
        responses={200: PlayerStatsSerializer, **error_responses(404, 429)},
    )
    def get(self, request: Request, username: str) -> Response:
        user = selectors.public_user(username=username)
        if user is None:
            raise ApiError("not_found", _("No such player."), status=404)
        return Response(PlayerStatsSerializer(user, context={"request": request}).data)


class LeaderboardView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="leaderboard",
        tags=["account"],
        summary="The best players of a rule family",
        description=f"Established ratings only (provisional ones are left out), best first: "
        f"the top {ratings.LEADERBOARD_SIZE}, in pages.",
        parameters=[LeaderboardFilterSerializer, *CURSOR_PARAMETERS],
        responses={
            200: LeaderboardSerializer,
            400: error_response(
                description=f"`invalid` (`rules`, with `details.fields`), {LIST_ERRORS}",
            ),
            **error_responses(429),
        },
    )
    def get(self, request: Request) -> Response:
        query = LeaderboardFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rules = query.validated_data["rules"]
        players = ratings.leaderboard(rules=rules)
        return SequencePagination().page_of_sequence(request, players, rules=rules)


class TokenListView(APIView):
    @extend_schema(
        operation_id="tokens_list",
        tags=["tokens"],
        summary="Your API tokens",
        description="Working tokens, newest first. The tokens themselves are never shown "
        "again after creation.",
        parameters=CURSOR_PARAMETERS,
        responses={
            200: TokenPageSerializer,
            400: error_response(description=LIST_ERRORS),
            **error_responses(401),
        },
    )
    def get(self, request: Request) -> Response:
        tokens = selectors.token_list(user=request_user(request))
        return TokenPagination().paginated(
            tokens, request, lambda token: TokenSerializer(token).data
        )

    @extend_schema(
        operation_id="tokens_create",
        tags=["tokens"],
        summary="Create an API token",
        request=TokenCreateSerializer,
        responses={
            201: TokenCreatedSerializer,
            400: error_response(
                description="Invalid input, or `too_many_tokens`.",
            ),
            **error_responses(401),
        },
    )
    def post(self, request: Request) -> Response:
        data = TokenCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            token, raw = services.token_create(
                user=request_user(request),
                name=data.validated_data["name"],
                expires_in=_expiry(data.validated_data["expires_in_days"]),
                scopes=data.validated_data.get("scopes"),
            )
        except services.TooManyTokens as exc:
            raise ApiError(exc.code, exc.message) from exc
        return Response(_token_payload(token, raw), status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    @extend_schema(
        operation_id="tokens_revoke",
        tags=["tokens"],
        summary="Revoke an API token",
        description="The token stops working at once.",
        responses={204: None, **error_responses(401, 404)},
    )
    def delete(self, request: Request, token_id: int) -> Response:
        try:
            services.token_revoke(user=request_user(request), token_id=token_id)
        except services.TokenNotFound as exc:
            raise ApiError(exc.code, exc.message, status=404) from exc
        return Response(status=status.HTTP_204_NO_CONTENT)
