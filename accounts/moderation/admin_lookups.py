"""An admin list's odd query or odd selection refused as Django refuses any other: the
list again, with its note, never a server error.

- Django's list turns a date hierarchy's year, month or day into numbers and catches the
  ``ValueError`` of a bad one, but not the ``OverflowError`` of a number past a C long
  (``?created_at__year=99999999999999999999``).
- An action filters the list by the ids the form sent (``_selected_action``) and takes
  whatever was sent: an id that is no number ("abc", "²", "") raised ``ValueError`` in
  the lookup. The list then says what Django says when nothing is selected.

tests/seams/test_hostile_pages.py sends every admin list and every action such values.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext


class _ChangeList(ChangeList):
    def get_filters(self, request: HttpRequest) -> Any:
        try:
            return super().get_filters(request)
        except OverflowError as error:
            raise IncorrectLookupParameters(error) from error


class OddLookupsRefused(admin.ModelAdmin):
    """Every admin of the site (through ``HiddenColumnsGuard``) and django-axes'."""

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return _ChangeList

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        key = self.model._meta.pk
        assert key is not None
        try:
            for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
                key.to_python(value)
        except ValidationError:
            # Django's own words for an action sent without a selection.
            self.message_user(
                request,
                gettext(
                    "Items must be selected in order to perform actions on them. No items "
                    "have been changed."
                ),
                messages.WARNING,
            )
            return HttpResponseRedirect(request.get_full_path())
        return super().response_action(request, queryset)
