from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import settings_views, views

app_name = "accounts"

urlpatterns = [
    path(
        "login/",
        views.LoginView.as_view(),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("players/<str:username>/", views.player, name="player"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("tokens/", views.token_create, name="token-create"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke, name="token-revoke"),
    # Links that emails carry.
    path("verify-email/<str:token>/", settings_views.verify_email, name="verify-email"),
    path("password-reset/", settings_views.PasswordResetView.as_view(), name="password-reset"),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password-reset-done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        settings_views.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password-reset-complete",
    ),
]
