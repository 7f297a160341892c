"""Web pages of the games app, mounted at the site root.

The base template links to ``games:play`` and ``games:list`` once they exist.
"""

from django.urls import URLPattern, URLResolver, path

from games import rules_views, vacation_views, views

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = [
    path("play/", views.play, name="play"),
    path("bots/", views.bot_directory, name="bots"),
    path("games/", views.game_list, name="list"),
    path("games/next/", views.next_game, name="next"),
    path("games/<str:game_id>/", views.detail, name="detail"),
    path("games/<str:game_id>/replay/", views.replay, name="replay"),
    path("games/<str:game_id>/deals/<int:number>/review/", views.deal_review, name="deal-review"),
    # The rules of each preset, from its ruleset.
    path("rules/", rules_views.rules_index, name="rules"),
    path("rules/<str:preset>/", rules_views.rules_detail, name="rules-preset"),
    # Notifications: the settings page, the links emails carry, the calendar feed.
    path(
        "settings/notifications/",
        views.notification_settings,
        name="notification-settings",
    ),
    path("settings/vacation/", vacation_views.vacation_settings, name="vacation-settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("calendar/<str:secret>.ics", views.calendar_feed, name="calendar"),
]
