"""The notification settings page's form: the same choices as the API's, checked by
``preferences.preferences_update`` when saved."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import PlayerSettings
from games.notify.preferences import reminder_hours_of
from remi_site import formats, zone_names

# Lead times offered as checkboxes (the API takes any whole hours; the player's own
# are offered too).
OFFERED_HOURS = (1, 2, 4, 8, 12, 24, 48, 72)


class NotificationSettingsForm(forms.Form):
    email_turns = forms.ChoiceField(
        label=_("“Your turn” emails"),
        choices=[
            (PlayerSettings.EmailTurns.EACH_MOVE, _("an email for each move")),
            (PlayerSettings.EmailTurns.DAILY, _("one email a day listing the games waiting")),
            (PlayerSettings.EmailTurns.OFF, pgettext_lazy("turn emails", "none")),
        ],
        widget=forms.RadioSelect,
    )
    reminders = forms.BooleanField(label=_("Remind me before a deadline"), required=False)
    reminder_hours = forms.TypedMultipleChoiceField(
        label=_("Hours before the deadline"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    email_strikes = forms.BooleanField(
        label=_("Email me when my time runs out and the server plays my turn"), required=False
    )
    email_game_over = forms.BooleanField(
        label=_("Email me the result when a game ends"), required=False
    )
    time_zone = forms.ChoiceField(label=_("Show times in"), required=False)
    push_turns = forms.BooleanField(label=_("It is my turn"), required=False)
    push_challenges = forms.BooleanField(label=_("Someone challenges me"), required=False)
    push_game_over = forms.BooleanField(label=_("A game ends"), required=False)

    def __init__(self, *args: Any, prefs: PlayerSettings, **kwargs: Any) -> None:
        initial = {
            name: getattr(prefs, name)
            for name in (
                "email_turns",
                "reminders",
                "email_strikes",
                "email_game_over",
                "time_zone",
                "push_turns",
                "push_challenges",
                "push_game_over",
            )
        }
        initial["reminder_hours"] = reminder_hours_of(prefs)
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        hours = sorted({*OFFERED_HOURS, *reminder_hours_of(prefs)})
        self.fields["reminder_hours"].choices = [  # type: ignore[attr-defined]
            (value, formats.unit(value, "hour")) for value in hours
        ]
        self.fields["time_zone"].choices = [  # type: ignore[attr-defined]
            ("", _("UTC (not chosen: your browser's zone is used when you open this page)")),
            *zone_choices(prefs.time_zone),
        ]


def zone_choices(saved: str) -> list[tuple[str, str]]:
    """The zones by their places in the reader's language; a zone the player saved
    under another of its ids (over the API) is offered as it was saved."""
    where = formats.locale()
    offered = list(zone_names.choices(where))
    if saved and saved not in zone_names.offered():
        offered.insert(1, (saved, zone_names.place(saved, where)))
    return [(zone, formats.as_the_library_said(place)) for zone, place in offered]
