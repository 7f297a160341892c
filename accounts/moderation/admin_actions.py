"""Moderator actions in the admin, each asking for the moderator's reason first.

- :class:`ObjectActionsMixin`: actions on one object (an account, a report, a game),
  as buttons on its page; each is a page of its own (GET: the form, POST: do it)
  that needs its permission.
- :func:`reasoned_action`: a changelist action (on the selected rows) that shows its
  form on a page of its own and acts once it is filled in.

The actions themselves are services (``accounts.moderation.services``,
``games.play.moderation``), which write the modlog.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from accounts.moderation.errors import ModerationError
from games.errors import GameError
from remi_site.formats import sentence

FORM_TEMPLATE = "admin/moderation/action_form.html"
Refused = (ModerationError, GameError)


def _always(obj: Any) -> bool:
    return True


@dataclass(frozen=True)
class ObjectAction:
    """One moderator action on one object: its URL name, button label, permission, the
    form it asks (built from the object and the POST data, or None), what it does (the
    message to show), and when its button is shown."""

    name: str
    label: str | Promise
    permission: str
    form: Callable[[Any, Mapping[str, Any] | None], forms.Form]
    perform: Callable[[HttpRequest, Any, forms.Form], str]
    shown: Callable[[Any], bool] = _always


class ObjectActionsMixin(admin.ModelAdmin):
    """``object_actions`` as buttons on an object's admin page, each its own page."""

    object_actions: tuple[ObjectAction, ...] = ()
    # The change form this admin would use without the buttons.
    object_actions_base_template = "admin/change_form.html"
    change_form_template = "admin/moderation/change_form.html"

    def get_urls(self) -> list[URLPattern]:
        name = f"{self.opts.app_label}_{self.opts.model_name}_act"
        view = self.admin_site.admin_view(self.object_action_view)
        own = [path("<path:object_id>/act/<str:action>/", view, name=name)]
        return own + super().get_urls()

    def object_action_url(self, obj: Model, action: ObjectAction) -> str:
        name = f"admin:{self.opts.app_label}_{self.opts.model_name}_act"
        return reverse(name, args=[obj.pk, action.name], current_app=self.admin_site.name)

    def object_actions_for(self, request: HttpRequest, obj: Model) -> list[tuple[str, str]]:
        """(label, URL) of the actions this moderator may take on ``obj`` now."""
        return [
            (str(action.label), self.object_action_url(obj, action))
            for action in self.object_actions
            if request.user.has_perm(action.permission) and action.shown(obj)
        ]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        extra_context = dict(extra_context or {})
        extra_context["moderation_base_template"] = self.object_actions_base_template
        obj = self.get_object(request, unquote(object_id))
        if obj is not None:
            extra_context["object_actions"] = self.object_actions_for(request, obj)
        return super().change_view(request, object_id, form_url, extra_context)

    def object_action_view(self, request: HttpRequest, object_id: str, action: str) -> HttpResponse:
        obj = self.get_object(request, unquote(object_id))
        found = next((a for a in self.object_actions if a.name == action), None)
        if obj is None or found is None:
            raise Http404(_("No such object or action."))
        if not self.has_view_permission(request, obj) or not request.user.has_perm(
            found.permission
        ):
            raise PermissionDenied
        form = found.form(obj, request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                done = found.perform(request, obj, form)
            except Refused as error:
                form.add_error(None, sentence(error.message))
            else:
                self.message_user(request, done, level=messages.SUCCESS)
                change = f"admin:{self.opts.app_label}_{self.opts.model_name}_change"
                return HttpResponseRedirect(
                    reverse(change, args=[obj.pk], current_app=self.admin_site.name)
                )
        context = {
            **self.admin_site.each_context(request),
            # The action, then what it applies to: "Ban: ana".
            "title": _("%(action)s: %(object)s") % {"action": found.label, "object": obj},
            "opts": self.opts,
            "original": obj,
            "objects": [obj],
            "form": form,
            "hidden": [],
            "submit": found.label,
        }
        return TemplateResponse(request, FORM_TEMPLATE, context)


def reasoned_action(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    title: str,
    form_class: type[forms.Form],
    perform: Callable[[QuerySet[Any], forms.Form], None],
) -> HttpResponse | None:
    """The body of a changelist action that asks for a reason: the first POST (from
    the changelist) shows the form with the selected rows; the second (``apply``)
    acts, and the admin goes back to the changelist."""
    applying = "apply" in request.POST
    form = form_class(request.POST if applying else None)
    if applying and form.is_valid():
        perform(queryset, form)
        return None
    hidden = [("action", request.POST.get("action", ""))]
    hidden += [("select_across", request.POST.get("select_across", "0"))]
    hidden += [(ACTION_CHECKBOX_NAME, pk) for pk in request.POST.getlist(ACTION_CHECKBOX_NAME)]
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "opts": modeladmin.opts,
        "objects": list(queryset[:100]),
        "form": form,
        "hidden": hidden,
        "submit": title,
    }
    return TemplateResponse(request, FORM_TEMPLATE, context)
