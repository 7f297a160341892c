"""Forms of moderation: the player's report page, and what a moderator gives with each
action in the admin (the reason always; a length, a kind)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import (
    MODERATION_REASON_MAX_LENGTH,
    REPORT_TEXT_MAX_LENGTH,
    FairPlayMark,
    Report,
)


class ReportForm(forms.Form):
    """A player's report (the account, game and line come with the page's address)."""

    reason = forms.ChoiceField(choices=Report.Reason.choices, label=_("What happened"))
    text = forms.CharField(
        required=False,
        max_length=REPORT_TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5}),
        label=_("Tell the moderators more (optional)"),
    )


class ReasonForm(forms.Form):
    """The moderator's reason, which the modlog keeps with their name."""

    reason = forms.CharField(
        max_length=MODERATION_REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 70}),
        help_text=_("Required. Recorded in the modlog with your name."),
    )


class BanForm(ReasonForm):
    days = forms.IntegerField(
        required=False, min_value=1, max_value=3650, help_text=_("Empty: a permanent ban.")
    )

    def ends_at(self) -> datetime | None:
        days = self.cleaned_data.get("days")
        return None if days is None else timezone.now() + timedelta(days=days)


class MuteForm(ReasonForm):
    hours = forms.IntegerField(min_value=1, max_value=24 * 90, initial=24)

    def ends_at(self) -> datetime:
        return timezone.now() + timedelta(hours=self.cleaned_data["hours"])


class MarkForm(ReasonForm):
    kind = forms.ChoiceField(choices=FairPlayMark.Kind.choices)
    revert = forms.BooleanField(
        required=False,
        label=_("Also take back the account's rated results"),
        help_text=_(
            "Every rated game of the account stops counting, for everyone in it, "
            "and the ratings are recomputed."
        ),
    )


class UnmarkForm(ReasonForm):
    kind = forms.ChoiceField(choices=FairPlayMark.Kind.choices)


class PairsForm(forms.Form):
    """The filters of the suspicious pairs page."""

    days = forms.IntegerField(min_value=1, max_value=3650, initial=90, required=False)
    min_games = forms.IntegerField(min_value=2, max_value=1000, initial=5, required=False)
    min_share = forms.FloatField(min_value=0, max_value=1, initial=0.5, required=False)
    min_lopsided = forms.FloatField(min_value=0.5, max_value=1, initial=0.8, required=False)

    def value(self, name: str) -> Any:
        found = self.cleaned_data.get(name) if self.is_valid() else None
        return self.fields[name].initial if found is None else found
