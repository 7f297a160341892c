"""The hidden columns: what no admin URL filters, searches, orders, lists or shows raw.

:data:`HIDDEN_COLUMNS` names them in one place, per model. A new hidden column is
covered everywhere by adding it here: every admin of the site is a
:class:`HiddenColumnsGuard` (``guard_registered`` makes the ones Django and the
libraries register into one), and every inline a :class:`HiddenColumnsInline`; they

- refuse any lookup in the query string that reaches a hidden column, on the model
  or across relations (``?private__icontains=…``, ``?deals__deck__startswith=…``):
  the changelist answers 400 (``DisallowedModelAdminLookup``), for everyone;
- leave hidden columns out of search (``?q=``), ordering (``?o=`` and the default),
  list columns, list filters and the page's fields. A form's own field for such a
  column stays: it is a rendering chosen on purpose (Django's user form shows a
  password only as its masked summary, beside the link that resets it).

The cards among them (hands, the stock, a player's private draws) are shown only by
the deal's and the move's own pages, drawn from the engine's state, under the rules
of ``games.read.moderation`` (the permission, a game over or one the viewer is not
seated in, and every look recorded). The secrets (a password's hash, a token's
digest, an invite or calendar code) are shown to nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib import admin
from django.contrib.admin.options import BaseModelAdmin
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

from accounts.moderation.admin_lookups import OddLookupsRefused

HIDDEN_COLUMNS: dict[str, frozenset[str]] = {
    # The cards: the deal's deck order, the ids of its positions and the seeds of its
    # reshuffles (with the move log they rebuild every hand), and its snapshot (every
    # hand and the stock).
    "games.deal": frozenset({"deck", "card_ids", "reshuffle_seeds", "state"}),
    # What only the mover saw: the card a player drew from the stock.
    "games.move": frozenset({"private"}),
    # A player's queued draw (the discards they are waiting for) and private notes.
    "games.premove": frozenset({"unless"}),
    "games.note": frozenset({"text"}),
    # Secrets: a private game's invite code, the calendar feed's key, Web Push keys,
    # API token digests and prefixes, password hashes.
    "games.game": frozenset({"invite_code"}),
    "games.playersettings": frozenset({"calendar_secret"}),
    "games.pushsubscription": frozenset({"endpoint", "p256dh", "auth"}),
    "accounts.apitoken": frozenset({"digest", "token_key"}),
    "auth.user": frozenset({"password"}),
}


def hidden_of(model: type[Model]) -> frozenset[str]:
    """The hidden columns of ``model`` (none for most)."""
    return HIDDEN_COLUMNS.get(model._meta.label_lower, frozenset())


def reaches_hidden(model: type[Model], path: str) -> bool:
    """Whether a lookup, search or ordering path (``deal__state__icontains``,
    ``-deck``, ``^game__invite_code``) reads a hidden column on its way."""
    parts = path.lstrip("-^=@").split(LOOKUP_SEP)
    for part in parts:
        try:
            field = model._meta.pk if part == "pk" else model._meta.get_field(part)
        except FieldDoesNotExist:
            return False  # a lookup or a transform: the column before it was visible
        if field is None:
            return False
        if field.name in hidden_of(model):
            return True
        path_infos = getattr(field, "path_infos", None)
        if not path_infos:
            return False
        model = path_infos[-1].to_opts.model
    return False


def _visible(model: type[Model], names: Iterable[Any]) -> list[Any]:
    """``names`` (paths, or list-filter entries, or callables) without those that read a
    hidden column."""
    kept = []
    for name in names:
        path = name[0] if isinstance(name, (list, tuple)) else name
        if isinstance(path, str) and reaches_hidden(model, path):
            continue
        kept.append(name)
    return kept


class HiddenFields(BaseModelAdmin):
    """An admin page or inline that never shows a hidden column raw (see the module's
    docstring)."""

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return self._visible_fieldset(super().get_fields(request, obj))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return self._visible_fieldset(super().get_readonly_fields(request, obj))

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return [*(super().get_exclude(request, obj) or ()), *sorted(hidden_of(self.model))]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        return [
            (name, {**options, "fields": self._visible_fieldset(options.get("fields", ()))})
            for name, options in super().get_fieldsets(request, obj)
        ]

    def _visible_fieldset(self, fields: Sequence[Any]) -> list[Any]:
        """A fieldset's fields without the hidden ones (a row may be a tuple of fields)."""
        kept: list[Any] = []
        for field in fields:
            if isinstance(field, (list, tuple)):
                row = self._visible_fieldset(field)
                if row:
                    kept.append(tuple(row))
            elif not self._hidden_field(field):
                kept.append(field)
        return kept

    def _hidden_field(self, name: Any) -> bool:
        declared = getattr(self.form, "declared_fields", {})
        return isinstance(name, str) and name not in declared and reaches_hidden(self.model, name)


class HiddenColumnsGuard(HiddenFields, OddLookupsRefused):
    """Every admin of the site: no hidden column in a lookup, search, ordering, list or
    form (see the module's docstring); and an odd lookup refused, not a server error
    (``admin_lookups``)."""

    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest | None = None) -> bool:
        if reaches_hidden(self.model, lookup):
            return False
        return bool(super().lookup_allowed(lookup, value, request))

    def get_search_fields(self, request: HttpRequest) -> list[Any]:
        return _visible(self.model, super().get_search_fields(request))

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        return _visible(self.model, super().get_ordering(request) or ())

    def get_list_display(self, request: HttpRequest) -> list[Any]:
        return [
            column
            for column in _visible(self.model, super().get_list_display(request))
            if not reaches_hidden(self.model, self._order_field(column))
        ]

    def get_list_filter(self, request: HttpRequest) -> list[Any]:
        return _visible(self.model, super().get_list_filter(request))

    def get_sortable_by(self, request: HttpRequest) -> list[Any]:
        return _visible(self.model, super().get_sortable_by(request))

    def _order_field(self, column: Any) -> str:
        """The path a list column orders by, when it names one (``@admin.display(ordering)``)."""
        attr = column if callable(column) else getattr(self, str(column), None)
        order = getattr(attr, "admin_order_field", None)
        return order.lstrip("-") if isinstance(order, str) else ""


class HiddenColumnsInline(HiddenFields, admin.TabularInline):
    """Every inline of the site's admins: no hidden column among its fields."""


def _guarded(admin_class: type[admin.ModelAdmin]) -> type[admin.ModelAdmin]:
    return type(admin_class.__name__, (HiddenColumnsGuard, admin_class), {})


def guard_registered(site: admin.AdminSite) -> None:
    """Make every admin registered on ``site`` so far a :class:`HiddenColumnsGuard`: those
    Django and the libraries register (groups, login attempts) have no hidden column
    today, and will not leak one added later."""
    for model, model_admin in list(site._registry.items()):
        if not isinstance(model_admin, HiddenColumnsGuard):
            site.unregister(model)
            site.register(model, _guarded(type(model_admin)))
