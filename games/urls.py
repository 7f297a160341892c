"""Web pages of the games app, mounted at the site root.

The base template links to ``games:play`` and ``games:list`` once they exist.
"""

from django.urls import URLPattern, URLResolver

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = []
