from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from remi_site import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # API: the schema, its browsable docs (offline, from the sidecar) and v1.
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("accounts.api.urls")),
    path("api/v1/", include("games.api.urls")),
    # Web pages.
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", views.home, name="home"),
]

handler404 = "remi_site.views.page_not_found"
handler500 = "remi_site.views.server_error"
