"""REST API of the games app, mounted under /api/v1/."""

from django.urls import URLPattern, URLResolver, path

from games.api import (
    challenge_views,
    chat_views,
    chips_views,
    hint_views,
    live_views,
    meld_views,
    notify_views,
    queue_views,
    replay_views,
    review_views,
    stream_views,
    turn_views,
    views,
)

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
    path("games/<str:game_id>/stream", stream_views.GameStreamView.as_view(), name="stream"),
    path("stream/events", stream_views.EventStreamView.as_view(), name="stream-events"),
    path("games/<str:game_id>/turn", turn_views.GameTurnView.as_view(), name="turn"),
    path("games/<str:game_id>/ready", views.GameReadyView.as_view(), name="ready"),
    path("games/<str:game_id>/rematch", challenge_views.RematchView.as_view(), name="rematch"),
    path("games/<str:game_id>/moves", views.GameMoveListView.as_view(), name="moves"),
    path("games/<str:game_id>/replay", replay_views.GameReplayView.as_view(), name="replay"),
    path("games/<str:game_id>/hint", hint_views.GameHintView.as_view(), name="hint"),
    path(
        "games/<str:game_id>/deals/<int:number>/review",
        review_views.DealReviewView.as_view(),
        name="deal-review",
    ),
    path("games/<str:game_id>/chat", chat_views.GameChatView.as_view(), name="chat"),
    path(
        "games/<str:game_id>/melds/check",
        meld_views.GameMeldCheckView.as_view(),
        name="melds-check",
    ),
    # Live play: the absent-player rule, vacation.
    path("games/<str:game_id>/absent", live_views.GameAbsentView.as_view(), name="absent"),
    # Challenges: to a named account or to anyone; accepting starts the game.
    path("challenges", challenge_views.ChallengeListView.as_view(), name="challenges"),
    path(
        "challenges/open", challenge_views.OpenChallengeListView.as_view(), name="challenges-open"
    ),
    path(
        "challenges/<str:challenge_id>",
        challenge_views.ChallengeDetailView.as_view(),
        name="challenge",
    ),
    path(
        "challenges/<str:challenge_id>/accept",
        challenge_views.ChallengeAcceptView.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<str:challenge_id>/decline",
        challenge_views.ChallengeDeclineView.as_view(),
        name="challenge-decline",
    ),
    path(
        "challenges/<str:challenge_id>/cancel",
        challenge_views.ChallengeCancelView.as_view(),
        name="challenge-cancel",
    ),
    path("me/chips", chips_views.MyChipsView.as_view(), name="chips"),
    path("me/vacation", live_views.VacationView.as_view(), name="vacation"),
    path("me/vacation/start", live_views.VacationStartView.as_view(), name="vacation-start"),
    path("me/vacation/end", live_views.VacationEndView.as_view(), name="vacation-end"),
    # Notifications: choices, Web Push subscriptions, the calendar feed, muted games.
    path(
        "me/notifications",
        notify_views.NotificationSettingsView.as_view(),
        name="notification-settings",
    ),
    path(
        "me/push-subscriptions",
        notify_views.PushSubscriptionsView.as_view(),
        name="push-subscriptions",
    ),
    path("me/calendar/reset", notify_views.CalendarResetView.as_view(), name="calendar-reset"),
    path("games/<str:game_id>/mute", notify_views.GameMuteView.as_view(), name="mute"),
    path("games/<str:game_id>/seen", notify_views.GameSeenView.as_view(), name="seen"),
    # The correspondence player's day: the queue, notes, a queued draw, extra time.
    path("me/queue", queue_views.QueueView.as_view(), name="queue"),
    path("games/<str:game_id>/note", queue_views.NoteView.as_view(), name="note"),
    path("games/<str:game_id>/premove", queue_views.PreMoveView.as_view(), name="premove"),
    path("games/<str:game_id>/extra-time", queue_views.ExtraTimeView.as_view(), name="extra-time"),
    path(
        "games/<str:game_id>/extra-time/<int:request_id>/grant",
        queue_views.ExtraTimeGrantView.as_view(),
        name="extra-time-grant",
    ),
    path(
        "games/<str:game_id>/extra-time/<int:request_id>/decline",
        queue_views.ExtraTimeDeclineView.as_view(),
        name="extra-time-decline",
    ),
]
