"""Web pages of the games app, mounted at the site root.

The base template links to ``games:play`` and ``games:list`` once they exist.
"""

from django.urls import URLPattern, URLResolver, path

from games import views

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = [
    path("play/", views.play, name="play"),
    path("games/", views.game_list, name="list"),
    path("games/<str:game_id>/", views.detail, name="detail"),
]
