"""A yes/no column's icon, said in the reader's language.

Django's admin draws a boolean as an icon whose alt text is Python's ``True``, ``False``
or ``None`` (``django.contrib.admin.templatetags.admin_list._boolean_icon``, Django 5.2):
a screen reader reads "True" to a Macedonian moderator. Every caller (the change list,
read-only fields, ``display_for_field``) looks the function up in that module when it
runs, so it is replaced there once, with the same icon and Django's own words for the
three answers ("Yes", "No", "Unknown", which its boolean filter already translates).
Check it on a Django upgrade: ``tests/moderation/test_admin_words.py``.
"""

from __future__ import annotations

from django.contrib.admin.templatetags import admin_list
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

_ICON = {True: "yes", False: "no", None: "unknown"}


def boolean_icon(field_val: bool | None) -> SafeString:
    said = {True: gettext("Yes"), False: gettext("No"), None: gettext("Unknown")}
    return format_html(
        '<img src="{}" alt="{}">',
        static(f"admin/img/icon-{_ICON[field_val]}.svg"),
        said[field_val],
    )


admin_list._boolean_icon = boolean_icon  # type: ignore[attr-defined]
