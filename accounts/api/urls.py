from django.urls import path

from accounts.api import history_views, moderation_views, settings_views, views

app_name = "accounts-api"

urlpatterns = [
    path("auth/signup", views.SignupView.as_view(), name="signup"),
    path("auth/login", views.LoginView.as_view(), name="login"),
    path("auth/logout", views.LogoutView.as_view(), name="logout"),
    path("me", views.MeView.as_view(), name="me"),
    path("me/bot", views.MeBotView.as_view(), name="me-bot"),
    path("me/settings", settings_views.SettingsView.as_view(), name="me-settings"),
    path("me/email", settings_views.EmailView.as_view(), name="me-email"),
    path("me/password", settings_views.PasswordView.as_view(), name="me-password"),
    path("me/delete", settings_views.AccountDeleteView.as_view(), name="me-delete"),
    path("me/games/history", history_views.HistoryView.as_view(), name="games-history"),
    path("me/games/export", history_views.ExportView.as_view(), name="games-export"),
    path("users/<str:username>", views.UserDetailView.as_view(), name="user"),
    path("leaderboard", views.LeaderboardView.as_view(), name="leaderboard"),
    path("tokens", views.TokenListView.as_view(), name="tokens"),
    path("tokens/<int:token_id>", views.TokenDetailView.as_view(), name="token"),
    path("reports", moderation_views.ReportListView.as_view(), name="reports"),
    path("me/sanctions", moderation_views.MySanctionsView.as_view(), name="me-sanctions"),
    path(
        "me/warnings/<int:pk>/acknowledge",
        moderation_views.WarningAcknowledgeView.as_view(),
        name="me-warning-acknowledge",
    ),
]
