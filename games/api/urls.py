"""REST API of the games app, mounted under /api/v1/."""

from django.urls import URLPattern, URLResolver, path

from games.api import chat_views, live_views, meld_views, views

app_name = "games-api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("rulesets", views.RulesetListView.as_view(), name="rulesets"),
    path("bots", views.BotListView.as_view(), name="bots"),
    path("games", views.GameListView.as_view(), name="games"),
    path("games/play-now", views.GamePlayNowView.as_view(), name="play-now"),
    path("invites/<str:invite_code>/join", views.InviteJoinView.as_view(), name="invite-join"),
    path("games/<str:game_id>", views.GameDetailView.as_view(), name="game"),
    path("games/<str:game_id>/join", views.GameJoinView.as_view(), name="join"),
    path("games/<str:game_id>/leave", views.GameLeaveView.as_view(), name="leave"),
    path("games/<str:game_id>/start", views.GameStartView.as_view(), name="start"),
    path("games/<str:game_id>/abort", views.GameAbortView.as_view(), name="abort"),
    path("games/<str:game_id>/resign", views.GameResignView.as_view(), name="resign"),
    path("games/<str:game_id>/actions", views.GameActionView.as_view(), name="actions"),
    path("games/<str:game_id>/moves", views.GameMoveListView.as_view(), name="moves"),
    path("games/<str:game_id>/chat", chat_views.GameChatView.as_view(), name="chat"),
    path(
        "games/<str:game_id>/melds/check",
        meld_views.GameMeldCheckView.as_view(),
        name="melds-check",
    ),
    # Live play: the absent-player rule, vacation, notification preferences.
    path("games/<str:game_id>/absent", live_views.GameAbsentView.as_view(), name="absent"),
    path("me/vacation", live_views.VacationView.as_view(), name="vacation"),
    path("me/vacation/start", live_views.VacationStartView.as_view(), name="vacation-start"),
    path("me/vacation/end", live_views.VacationEndView.as_view(), name="vacation-end"),
    path(
        "me/notifications",
        live_views.NotificationSettingsView.as_view(),
        name="notification-settings",
    ),
]
