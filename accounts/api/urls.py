from django.urls import path

from accounts.api import views

app_name = "accounts-api"

urlpatterns = [
    path("auth/signup", views.SignupView.as_view(), name="signup"),
    path("auth/login", views.LoginView.as_view(), name="login"),
    path("auth/logout", views.LogoutView.as_view(), name="logout"),
    path("me", views.MeView.as_view(), name="me"),
    path("me/bot", views.MeBotView.as_view(), name="me-bot"),
    path("users/<str:username>", views.UserDetailView.as_view(), name="user"),
    path("leaderboard", views.LeaderboardView.as_view(), name="leaderboard"),
    path("tokens", views.TokenListView.as_view(), name="tokens"),
    path("tokens/<int:token_id>", views.TokenDetailView.as_view(), name="token"),
]
