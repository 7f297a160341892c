"""Forms of moderation: the player's report page, and what a moderator gives with each
action in the admin (the reason always; a length, a kind)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import (
    APPEAL_TEXT_MAX_LENGTH,
    MODERATION_REASON_MAX_LENGTH,
    REPORT_TEXT_MAX_LENGTH,
    FairPlayMark,
    Report,
    Sanction,
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
        label=_("Reason"),
        help_text=_("Required. Recorded in the modlog with your name."),
    )


class PresetReasonForm(ReasonForm):
    """A preset reason, which the player reads in their language, and the moderator's
    own words (required without a preset)."""

    preset = forms.ChoiceField(
        choices=[("", _("(no preset)")), *Sanction.Preset.choices],
        required=False,
        label=_("Reason"),
    )
    reason = forms.CharField(
        max_length=MODERATION_REASON_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 70}),
        label=_("In your words"),
        help_text=_("Recorded in the modlog with your name; the player reads it."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        preset, reason = data.get("preset") or "", (data.get("reason") or "").strip()
        if not reason and not preset:
            raise forms.ValidationError(_("Choose a preset reason or write one."))
        # The modlog's reason is never empty: a preset alone is recorded by its name.
        data["reason"] = reason or str(Sanction.Preset(preset).label)
        return data


class DurationForm(PresetReasonForm):
    """A length in hours or days."""

    UNITS = (("hours", _("hours")), ("days", _("days")))

    length = forms.IntegerField(required=False, min_value=1, max_value=24 * 3650, label=_("For"))
    unit = forms.ChoiceField(choices=UNITS, initial="days", label=_("Unit"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        length, unit = data.get("length"), data.get("unit")
        if length is not None and unit == "days" and length > 3650:
            self.add_error("length", _("At most 3650 days."))
        return data

    def ends_at(self) -> datetime | None:
        length = self.cleaned_data.get("length")
        if length is None:
            return None
        unit = self.cleaned_data.get("unit") or "days"
        return timezone.now() + timedelta(**{unit: length})


class BanForm(DurationForm):
    """A ban has a length, or is chosen as permanent: an empty length is refused."""

    permanent = forms.BooleanField(required=False, label=_("Permanent ban"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("length") is None and not data.get("permanent"):
            self.add_error("length", _("Give a length, or choose a permanent ban."))
        if data.get("length") is not None and data.get("permanent"):
            self.add_error("permanent", _("A permanent ban has no length."))
        return data


class MuteForm(DurationForm):
    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("length") is None and "length" not in self.errors:
            self.add_error("length", _("Give a length."))
        return data


class PlaybanForm(MuteForm):
    """A moderator's playban: a length, like a mute."""


class WarnForm(PresetReasonForm):
    pass


class NoteForm(forms.Form):
    text = forms.CharField(
        max_length=MODERATION_REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 70}),
        label=_("Note"),
        help_text=_("Only moderators read it."),
    )


class AppealForm(forms.Form):
    text = forms.CharField(
        max_length=APPEAL_TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5}),
        label=_("Why should the sanction be lifted?"),
        help_text=_("One appeal per sanction: a moderator reads it and answers."),
    )


class AppealDecideForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[("deny", _("Deny: the sanction stands")), ("grant", _("Grant: lift it"))],
        label=_("Answer"),
    )
    answer = forms.CharField(
        max_length=MODERATION_REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Your words to the player"),
    )


class CloseReportsForm(ReasonForm):
    """Close all of an account's open reports at once."""

    outcome = forms.ChoiceField(
        choices=[
            (Report.Status.DISMISSED.value, _("No action")),
            (Report.Status.RESOLVED.value, _("Action taken")),
        ],
        label=_("Outcome"),
    )


class MarkForm(ReasonForm):
    kind = forms.ChoiceField(choices=FairPlayMark.Kind.choices, label=_("Kind"))
    revert = forms.BooleanField(
        required=False,
        label=_("Also take back the account's rated results"),
        help_text=_(
            "Every rated game of the account stops counting, for everyone in it, "
            "and the ratings are recomputed."
        ),
    )


class UnmarkForm(ReasonForm):
    kind = forms.ChoiceField(choices=FairPlayMark.Kind.choices, label=_("Kind"))


class PairsForm(forms.Form):
    """The filters of the suspicious pairs page."""

    days = forms.IntegerField(
        min_value=1, max_value=3650, initial=90, required=False, label=_("Days back")
    )
    min_games = forms.IntegerField(
        min_value=2, max_value=1000, initial=5, required=False, label=_("Fewest games together")
    )
    # Shares from 0 to 1 (0.5: half of the games).
    min_share = forms.FloatField(
        min_value=0, max_value=1, initial=0.5, required=False, label=_("Smallest share")
    )
    min_lopsided = forms.FloatField(
        min_value=0.5,
        max_value=1,
        initial=0.8,
        required=False,
        label=_("Smallest share of games ahead"),
    )

    def value(self, name: str) -> Any:
        found = self.cleaned_data.get(name) if self.is_valid() else None
        return self.fields[name].initial if found is None else found
