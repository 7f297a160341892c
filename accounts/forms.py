from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import MaxLengthValidator
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts import display_names, usernames
from accounts.history import RESULTS
from accounts.models import CardColours, Language, Profile
from accounts.scopes import ALL_SCOPES, SCOPE_CHOICES
from games.engine import PRESETS
from games.engine_words import preset_display_name
from games.models import Game, PlayerSettings
from remi_site import countries
from remi_site.throttling import scope_refusal

User = get_user_model()
# The password rules in the language of the request, not of the process's start.
_password_rules = lazy(password_validation.password_validators_help_text_html, str)


THROTTLED = "throttled"


def count_try(request: Any, scope: str, message: Any) -> None:
    """Count one try of a password against the API's rate ``scope`` for the same
    client (an address, or a signed-in account), before the password is checked, so
    that a page is no way around the API's limit; when the rate is spent, a
    ``ValidationError`` (code ``THROTTLED``) of ``message`` with the time to wait."""
    refusal = scope_refusal(request, scope, message) if request is not None else None
    if refusal is not None:
        raise forms.ValidationError(refusal, code=THROTTLED)


LOG_INS_SPENT = _("Many log-in attempts from your address: wait %(time)s.")


class LoginForm(AuthenticationForm):
    """Django's log-in form with its username's length checked. Django sets the field's
    ``max_length`` after making the field, which sizes the input but adds no validator:
    an overlong name went on to authentication and to django-axes' record of the failed
    attempt, whose column holds 255 characters (a server error)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        assert isinstance(username, forms.CharField) and username.max_length
        username.validators.append(MaxLengthValidator(username.max_length))

    def clean(self) -> dict[str, Any]:
        # Counted with the API's log-ins from the same address (THROTTLE_LOGIN):
        # django-axes locks one username out at one address after a few failures,
        # which would leave trying many usernames from it.
        count_try(self.request, "login", LOG_INS_SPENT)
        return super().clean()


class SignupForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        validators=[UnicodeUsernameValidator(), usernames.refuse_mixed_alphabets],
        help_text=_("Letters, digits and @/./+/-/_ only."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        help_text=_("What other players see. Defaults to the username."),
    )
    email = forms.EmailField(
        # A context of its own: Django's catalogue leaves "Email" in English in Macedonian.
        label=pgettext_lazy("form field", "Email"),
        required=False,
        help_text=_("Optional."),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_password_rules(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if usernames.is_taken(username):
            raise forms.ValidationError(_("That username is taken."))
        return username

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        if name:
            display_names.refuse_posing(name, account=None)
        return name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        password1, password2 = cleaned.get("password1"), cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", _("The two passwords differ."))
        elif password1:
            candidate = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(password1, user=candidate)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
                # The errors name the rules the password breaks: the rules are shown once.
                self.fields["password1"].help_text = ""
                self["password1"].help_text = ""
        return cleaned


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "bio", "country", "avatar"]
        widgets = {"bio": forms.Textarea(attrs={"rows": 3})}
        # Said to the player ("About you"); the model's own names are the admin's.
        labels = {
            "display_name": _("Display name"),
            "bio": _("About you"),
            "country": _("Country"),
            "avatar": _("Avatar"),
        }
        help_texts = {"avatar": _("An emoji, or an https:// image URL.")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Countries by name in the reader's language; the profile keeps the ISO code.
        self.fields["country"] = forms.ChoiceField(
            label=_("Country"),
            choices=[("", _("Not given")), *countries.choices()],
            required=False,
        )

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        display_names.refuse_posing(name, account=self.instance.user)
        return name


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=64, help_text=_("What it is for, e.g. my-bot.")
    )
    expires_in_days = forms.IntegerField(
        label=_("Expires in days"),
        min_value=1,
        max_value=3650,
        required=False,
        help_text=_("Empty: until revoked."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("What it may do"),
        choices=SCOPE_CHOICES,
        initial=ALL_SCOPES,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Give a token only what its program needs."),
    )


class SettingsForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"), max_length=40, help_text=_("What other players see.")
    )
    language = forms.ChoiceField(
        label=_("Language"),
        choices=Language.choices,
        help_text=_("The language of the site and of the emails we send you."),
    )
    email_turns = forms.ChoiceField(
        label=_("“Your turn” emails"),
        choices=[
            (PlayerSettings.EmailTurns.EACH_MOVE, _("For each move, when I am not at the table")),
            (PlayerSettings.EmailTurns.DAILY, _("One daily digest")),
            (PlayerSettings.EmailTurns.OFF, pgettext_lazy("turn emails", "None")),
        ],
    )
    email_challenges = forms.BooleanField(
        label=_("Email me when someone challenges me"), required=False
    )
    email_report_outcomes = forms.BooleanField(
        label=_("Email me what came of my reports"), required=False
    )
    chat_enabled = forms.BooleanField(label=_("Show the table chat"), required=False)
    show_online = forms.BooleanField(label=_("Let others see when I am online"), required=False)
    card_colours = forms.ChoiceField(
        label=_("Card colours"),
        choices=CardColours.choices,
        help_text=_("Four colours tell the suits apart at a glance: ♦ blue and ♣ green."),
        required=False,
    )

    def __init__(self, *args: Any, account: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.account = account  # whose settings: their own display name is theirs

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        display_names.refuse_posing(name, account=self.account)
        return name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # A form sent without the deck's colours (an older page) leaves them as they are.
        if not cleaned.get("card_colours"):
            cleaned.pop("card_colours", None)
        return cleaned


PASSWORD_TRIES_SPENT = _("Many tries of your password: wait %(time)s.")


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's, its old password's tries counted as ``PasswordConfirmedForm``'s."""

    def __init__(self, *args: Any, request: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        count_try(self.request, "login", PASSWORD_TRIES_SPENT)
        return str(super().clean_old_password())


class PasswordConfirmedForm(forms.Form):
    """A form that the account's password confirms."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: Any, request: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request

    def clean_password(self) -> str:
        # Counted with the API's password-confirmed requests of the same account
        # (THROTTLE_LOGIN): a session is no way to try passwords faster than a token.
        count_try(self.request, "login", PASSWORD_TRIES_SPENT)
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password


class EmailChangeForm(PasswordConfirmedForm):
    email = forms.EmailField(
        label=_("New email address"),
        required=False,
        help_text=_(
            "We send a link to it; it becomes your address once you open the link. "
            "Empty: remove your address (you then cannot reset a forgotten "
            "password)."
        ),
    )
    field_order = ["email", "password"]


class AccountDeleteForm(PasswordConfirmedForm):
    pass


# Said when the form is shown, in the language of that request.
_lazy_preset_name = lazy(preset_display_name, str)
_RESULT_LABELS = {
    "won": _("Won"),
    "lost": _("Lost"),
    "playing": _("Playing"),
    # Games, plural ("Prekinute"); a game's own status is one game ("Prekinuta").
    "aborted": pgettext_lazy("history filter", "Aborted"),
}


class HistoryFilterForm(forms.Form):
    """The filters of the history page (a GET form: every field may be empty)."""

    variant = forms.ChoiceField(
        label=_("Rules"),
        required=False,
        choices=[("", _("Any")), *((p, _lazy_preset_name(p)) for p in PRESETS)],
    )
    result = forms.ChoiceField(
        label=_("Result"),
        required=False,
        choices=[("", _("Any")), *((r, _RESULT_LABELS.get(r, r)) for r in RESULTS)],
    )
    opponent = forms.CharField(
        label=_("Opponent"), required=False, max_length=150, help_text=_("A username.")
    )
    time_control = forms.ChoiceField(
        label=_("Time control"),
        required=False,
        choices=[("", _("Any")), *Game.TimeControl.choices],
    )
    since = forms.DateField(
        label=_("Since"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Started on or after."),
    )
    until = forms.DateField(
        label=_("Until"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Started on or before."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        since, until = cleaned.get("since"), cleaned.get("until")
        if since and until and since > until:
            self.add_error("until", _("The end of the range comes before its start."))
        return cleaned
