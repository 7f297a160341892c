"""The permissions to grant on a user's or a group's page, said in the reader's language.

Django keeps a permission's name in the database, in English, and lists it as it is
("games | partija | Can add game"). Here each is labelled from the code: the app's and
the model's names and what the permission allows, translated. Django's four default
permissions say "Can add %(name)s" and the like, with the model's name after a colon
in the catalogues ("Może dodawać: gra"), right for any gender and case (as in
remi_site/admin_model_words.py); our own are the models' ``Meta.permissions``, marked
for the catalogues with ``gettext_noop`` (the migrations keep the same English). The
two-list widget's search filters the shown text, so it finds the reader's words.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin
from django.contrib.auth.models import Group, Permission
from django.db.models import Field
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_noop

# Django's default permissions, by the codename's prefix ("add_game").
DEFAULT_ACTIONS = {
    "add": gettext_noop("Can add %(name)s"),
    "change": gettext_noop("Can change %(name)s"),
    "delete": gettext_noop("Can delete %(name)s"),
    "view": gettext_noop("Can view %(name)s"),
}
PERMISSION_FIELDS = frozenset({"permissions", "user_permissions"})


def permission_label(permission: Permission) -> str:
    """Its label, "app | model | what it allows", in the active language."""
    model = permission.content_type.model_class()
    if model is None:  # A content type whose model is gone: only its stored name is left.
        return str(permission)
    meta = model._meta
    action, _, model_name = permission.codename.partition("_")
    if model_name == meta.model_name and action in DEFAULT_ACTIONS:
        allows = gettext(DEFAULT_ACTIONS[action]) % {"name": meta.verbose_name}
    else:
        # The code's sentence (the stored name may be older); a library's stays English.
        allows = gettext(dict(meta.permissions).get(permission.codename, permission.name))
    return f"{meta.app_config.verbose_name} | {meta.verbose_name} | {allows}"


class PermissionsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return permission_label(obj)


class PermissionLabels(admin.ModelAdmin):
    """An admin whose lists of permissions to grant are labelled in the reader's words."""

    def formfield_for_manytomany(
        self, db_field: Field[Any, Any], request: HttpRequest | None, **kwargs: Any
    ) -> forms.ModelMultipleChoiceField | None:
        if db_field.name in PERMISSION_FIELDS:
            kwargs["form_class"] = PermissionsField
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[arg-type]


admin.site.unregister(Group)


@admin.register(Group)
class GroupsAdmin(PermissionLabels, GroupAdmin):
    """Django's group admin, its permissions said in the reader's words."""
