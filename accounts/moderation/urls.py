from django.urls import path

from accounts.moderation import mod_views, player_views, table_views, views

app_name = "moderation"

urlpatterns = [
    path("report/", views.report, name="report"),
    path("warning/", player_views.warning, name="warning"),
    path("reports/", player_views.my_reports, name="my-reports"),
    path("sanctions/", player_views.my_sanctions, name="my-sanctions"),
    path("sanctions/<int:pk>/appeal/", player_views.appeal, name="appeal"),
    path("appeal/<str:token>/", player_views.appeal_by_link, name="appeal-by-link"),
    path("appeals/<int:pk>/decide/", mod_views.appeal_decide, name="appeal-decide"),
    path("queue/", mod_views.report_queue, name="queue"),
    path("queue/<str:username>/claim/", mod_views.reports_claim, name="claim"),
    path("players/<str:username>/", mod_views.player, name="player"),
    path("players/<str:username>/close/", mod_views.reports_close, name="close"),
    path("players/<str:username>/act/<str:action>/", mod_views.act, name="act"),
    # A moderator at a table: the chat's lines, a line hidden or shown again.
    path("games/<str:game_id>/chat/", table_views.chat_lines, name="table-chat"),
    path(
        "games/<str:game_id>/chat/<int:message_id>/hide/",
        table_views.chat_hide,
        name="table-chat-hide",
    ),
    path(
        "games/<str:game_id>/chat/<int:message_id>/show/",
        table_views.chat_show,
        name="table-chat-show",
    ),
]
