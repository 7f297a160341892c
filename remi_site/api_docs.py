"""How the OpenAPI document (drf-spectacular) describes the API: its title, its words,
its docs pages served offline, and the names of shared choice sets."""

SPECTACULAR_SETTINGS = {
    "TITLE": "Remi online API",
    "DESCRIPTION": (
        "Public API of Remi online (Balkan rummy). Authenticate with a personal API token "
        "(`Authorization: Bearer <token>`, see `/api/v1/tokens`) or the web session. A "
        "token has scopes (`read`, `play`, `challenge`, `bot:play`, `account`): each "
        "operation names the one it needs (`x-token-scope`), and a token without it gets "
        "`403 insufficient_scope`. "
        'Every error has the shape `{"error": {"code", "message", "details"}}`. Every '
        'list answers `{"next", "previous", "results"}` (`page_size` 1 to 100). The '
        "websocket `/ws/v1/` (live game events, your event stream) is described frame by "
        "frame in the AsyncAPI document [`/api/asyncapi.yaml`](/api/asyncapi.yaml)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Swagger UI and ReDoc from the sidecar package: the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Names for choice sets that share a field name (games: status, kind).
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.Game.Status",
        "ReportReasonEnum": "accounts.models.Report.Reason",
        "ReportStatusEnum": "accounts.models.Report.Status",
        "SeatStatusEnum": "games.models.Seat.Status",
        "TimeControlEnum": "games.models.Game.TimeControl",
        "GameListStatusEnum": "games.api.serializers.LIST_STATUS_CHOICES",
        "AbsentChoiceEnum": "games.api.live_serializers.CHOICE_VALUES",
        "MeldKindEnum": "games.api.view_serializers.MELD_KINDS",
        "ChallengeStatusEnum": "games.models.Challenge.Status",
        "DeclineReasonEnum": "games.models.Challenge.DeclineReason",
        "TokenScopeEnum": "accounts.scopes.ALL_SCOPES",
    },
}
