"""An admin list's odd query refused as Django refuses any other: the list again, with
its "wrong parameters" note, never a server error.

Django's list turns a date hierarchy's year, month or day into numbers and catches the
``ValueError`` of a bad one, but not the ``OverflowError`` of a number past a C long
(``?created_at__year=99999999999999999999``). tests/seams/test_hostile_pages.py sends
every admin list such values.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ChangeList
from django.http import HttpRequest


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
