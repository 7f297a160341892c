"""The signed-in person's own pages, at the site root: /settings/… and /history/.

(``/settings/notifications/`` belongs to the games app; it is matched after these.)
"""

from django.urls import path

from accounts import history_views, settings_views

app_name = "me"

urlpatterns = [
    path("settings/", settings_views.settings_page, name="settings"),
    path("settings/email/", settings_views.email_change, name="email"),
    path("settings/email/resend/", settings_views.email_resend, name="email-resend"),
    path("settings/password/", settings_views.PasswordChangeView.as_view(), name="password"),
    path("settings/delete/", settings_views.account_delete, name="delete"),
    path("history/", history_views.history_page, name="history"),
]
