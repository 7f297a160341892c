from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from remi_site import asyncapi, language, views
from remi_site.script_cldr import CatalogueWithCldr

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # The language switcher (Django's view, saving a signed-in person's choice) and the
    # scripts' translations with CLDR's words for them (static/js/i18n.js).
    path("i18n/setlang/", language.set_language, name="set_language"),
    path("jsi18n/", CatalogueWithCldr.as_view(), name="javascript-catalog"),
    # API: the schema, its browsable docs (offline, from the sidecar) and v1.
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The websocket's events, frame by frame (AsyncAPI 3).
    path("api/asyncapi.yaml", asyncapi.asyncapi_document, name="asyncapi"),
    # The split view serves Swagger UI's start-up script from its own URL, not inline,
    # and the page is ours without an inline style: both allowed by the CSP.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html"),
        name="api-docs",
    ),
    path("api/v1/", include("accounts.api.urls")),
    path("api/v1/", include("games.api.urls")),
    # Web pages.
    path("accounts/", include("accounts.urls")),
    path("moderation/", include("accounts.moderation.urls")),
    path("", include("accounts.me_urls")),
    path("", include("games.urls")),
    path("", views.home, name="home"),
]

handler400 = "remi_site.views.bad_request"
handler404 = "remi_site.views.page_not_found"
handler500 = "remi_site.views.server_error"
