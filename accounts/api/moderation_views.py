"""Reports over the API, and what limits the caller now (their chat mute, their
playban). Thin: parse, find what the report names (``accounts.moderation.targets``),
call the service, answer."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from accounts.authentication import request_user
from accounts.models import REPORT_TEXT_MAX_LENGTH, Report
from accounts.moderation import record, selectors, services
from accounts.moderation.errors import ModerationError
from accounts.moderation.targets import report_target
from remi_site import strict_fields as strict
from remi_site.api_errors import ApiError, error_response, error_responses
from remi_site.pagination import CURSOR_PARAMETERS, LIST_ERRORS, CursorPagination, page_serializer


class ReportCreateSerializer(Serializer):
    username = strict.CharField(
        required=False,
        max_length=150,
        help_text="The account reported (from a game or a "
        "profile); a chat line names its author itself.",
    )
    game = strict.CharField(required=False, max_length=16, help_text="The game's public id.")
    message = strict.IntegerField(
        required=False, min_value=1, help_text="The id of the chat line reported."
    )
    reason = serializers.ChoiceField(choices=Report.Reason.choices)
    text = strict.CharField(
        required=False, allow_blank=True, max_length=REPORT_TEXT_MAX_LENGTH, default=""
    )


class ReportSerializer(Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="reported.username")
    reason = serializers.ChoiceField(choices=Report.Reason.choices)
    text = serializers.CharField()
    game = serializers.CharField(source="game.public_id", allow_null=True, default=None)
    message = serializers.IntegerField(source="chat_message_id", allow_null=True)
    origin = serializers.ChoiceField(
        source="source",
        choices=["chat", "game", "profile"],
        help_text="Where it was made from: a chat line, a game or a profile.",
    )
    status = serializers.ChoiceField(choices=Report.Status.choices)
    outcome = serializers.SerializerMethodField(
        help_text="`action_taken` or `no_action` once a moderator closed it; null while "
        "open. What the action was stays private."
    )
    created_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(
        serializers.ChoiceField(choices=["action_taken", "no_action"], allow_null=True)
    )
    def get_outcome(self, report: Report) -> str | None:
        return record.report_outcome(report)


ReportPageSerializer = page_serializer("ReportPageSerializer", ReportSerializer(many=True))


class ReportPagination(CursorPagination):
    ordering = ("-created_at", "-id")


class SanctionSerializer(Serializer):
    kind = serializers.CharField()
    reason = serializers.CharField()
    since = serializers.DateTimeField()
    until = serializers.DateTimeField(allow_null=True)


class WarningSerializer(Serializer):
    id = serializers.IntegerField()
    preset = serializers.CharField(
        help_text="The preset reason's key (empty: none); `preset_text` is it in your language."
    )
    preset_text = serializers.CharField(source="get_preset_display")
    reason = serializers.CharField(help_text="The moderator's words.")
    since = serializers.DateTimeField(source="created_at")


class MySanctionsSerializer(Serializer):
    mute = SanctionSerializer(allow_null=True, help_text="Your chat mute, if you have one.")
    playban = SanctionSerializer(
        allow_null=True, help_text="Your wait before another rated game, if you have one."
    )
    warnings = WarningSerializer(
        many=True,
        help_text="Warnings you have not acknowledged yet "
        "(`POST /api/v1/me/warnings/{id}/acknowledge`).",
    )


def _api_error(error: ModerationError) -> ApiError:
    return ApiError(error.code, error.message, status=error.status, details=error.details)


class ReportListView(APIView):
    throttle_scope = "report"

    def get_throttles(self) -> list[BaseThrottle]:
        # Reading your reports is free; sending one is rate-limited.
        throttles = super().get_throttles()
        if self.request.method == "GET":
            return [t for t in throttles if not isinstance(t, ScopedRateThrottle)]
        return throttles

    @extend_schema(
        operation_id="reports_list",
        tags=["moderation"],
        summary="Your reports",
        description="The reports you sent, newest first, with what became of them "
        "(`outcome`), in the one list shape.",
        parameters=CURSOR_PARAMETERS,
        responses={
            200: ReportPageSerializer,
            400: error_response(description=LIST_ERRORS),
            **error_responses(401, 429),
        },
    )
    def get(self, request: Request) -> Response:
        reports = selectors.reports_by(reporter=request_user(request))
        return ReportPagination().paginated(
            reports, request, lambda report: ReportSerializer(report).data
        )

    @extend_schema(
        operation_id="reports_create",
        tags=["moderation"],
        summary="Report an account",
        description="From a chat line (`message`: its author is reported), a game (`game` "
        "and the `username` of one of its players) or a profile (`username` alone). "
        "Rate-limited per user (`THROTTLE_REPORT`, 10 an hour by default, the report page "
        "included). `already_reported` (409): the same report is still open.",
        request=ReportCreateSerializer,
        responses={201: ReportSerializer, **error_responses(400, 401, 404, 409, 429)},
    )
    def post(self, request: Request) -> Response:
        body = ReportCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        reporter = request_user(request)
        try:
            target = report_target(
                reporter=reporter,
                username=data.get("username"),
                game_id=data.get("game"),
                message_id=data.get("message"),
            )
            report = services.report_create(
                reporter=reporter,
                reported=target.reported,
                reason=data["reason"],
                text=data["text"],
                game=target.game,
                chat_message=target.chat_message,
            )
        except ModerationError as error:
            raise _api_error(error) from error
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)


class MySanctionsView(APIView):
    @extend_schema(
        operation_id="me_sanctions",
        tags=["moderation"],
        summary="What limits you now",
        description="Your chat mute and your playban (a wait before another rated game, "
        "after abandoning rated games), each with its reason and end; null when none; "
        "and the warnings you have not acknowledged.",
        responses={200: MySanctionsSerializer, **error_responses(401, 429)},
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        found = {
            **selectors.sanctions_of(user=user),
            "warnings": list(record.warnings_unread(user_id=user.pk)),
        }
        return Response(MySanctionsSerializer(found).data)


class WarningAcknowledgeView(APIView):
    @extend_schema(
        operation_id="me_warning_acknowledge",
        tags=["moderation"],
        summary="Acknowledge a warning",
        description="You have read warning `id`: it is no longer shown. Acknowledging it "
        "again changes nothing; `not_found` (404): no warning of yours has that id.",
        request=None,
        responses={200: WarningSerializer, **error_responses(401, 404, 429)},
    )
    def post(self, request: Request, pk: int) -> Response:
        try:
            warning = services.warning_acknowledge(user=request_user(request), pk=pk)
        except ModerationError as error:
            raise _api_error(error) from error
        return Response(WarningSerializer(warning).data)
