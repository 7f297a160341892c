from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator

from accounts.history import RESULTS
from accounts.models import DELETED_USERNAME_PREFIX, Language, Profile
from games.engine import PRESETS
from games.models import Game, PlayerSettings

User = get_user_model()


class SignupForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @/./+/-/_ only.",
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    display_name = forms.CharField(
        max_length=40, required=False, help_text="What other players see. Defaults to the username."
    )
    email = forms.EmailField(required=False, help_text="Optional.")
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        taken = User.objects.filter(username__iexact=username).exists()
        if taken or username.lower().startswith(DELETED_USERNAME_PREFIX):
            raise forms.ValidationError("That username is taken.")
        return username

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        password1, password2 = cleaned.get("password1"), cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", "The two passwords differ.")
        elif password1:
            candidate = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(password1, user=candidate)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return cleaned


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "bio", "country", "avatar"]
        widgets = {"bio": forms.Textarea(attrs={"rows": 3})}


class TokenCreateForm(forms.Form):
    name = forms.CharField(max_length=64, help_text="What it is for, e.g. my-bot.")
    expires_in_days = forms.IntegerField(
        min_value=1, max_value=3650, required=False, help_text="Empty: until revoked."
    )


class SettingsForm(forms.Form):
    display_name = forms.CharField(max_length=40, help_text="What other players see.")
    language = forms.ChoiceField(
        choices=Language.choices,
        help_text="The site's language (translations are on their way; English until then).",
    )
    email_turns = forms.ChoiceField(
        label="“Your turn” emails",
        choices=[
            (PlayerSettings.EmailTurns.EACH_MOVE, "For each move, when I am not at the table"),
            (PlayerSettings.EmailTurns.DAILY, "One daily digest"),
            (PlayerSettings.EmailTurns.OFF, "None"),
        ],
    )
    email_challenges = forms.BooleanField(
        label="Email me when someone challenges me", required=False
    )
    chat_enabled = forms.BooleanField(label="Show the table chat", required=False)
    show_online = forms.BooleanField(label="Let others see when I am online", required=False)


class PasswordConfirmedForm(forms.Form):
    """A form that the account's password confirms."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password


class EmailChangeForm(PasswordConfirmedForm):
    email = forms.EmailField(
        label="New email address",
        required=False,
        help_text="We send a link to it; it becomes your address once you open the link. "
        "Empty: remove your address (you then cannot reset a forgotten password).",
    )
    field_order = ["email", "password"]


class AccountDeleteForm(PasswordConfirmedForm):
    pass


class HistoryFilterForm(forms.Form):
    """The filters of the history page (a GET form: every field may be empty)."""

    variant = forms.ChoiceField(
        label="Rules", required=False, choices=[("", "Any"), *((p, p) for p in PRESETS)]
    )
    result = forms.ChoiceField(
        required=False, choices=[("", "Any"), *((r, r.capitalize()) for r in RESULTS)]
    )
    opponent = forms.CharField(required=False, max_length=150, help_text="A username.")
    time_control = forms.ChoiceField(
        label="Time control",
        required=False,
        choices=[("", "Any"), *Game.TimeControl.choices],
    )
    since = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Started on or after.",
    )
    until = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Started on or before.",
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        since, until = cleaned.get("since"), cleaned.get("until")
        if since and until and since > until:
            self.add_error("until", "The end of the range comes before its start.")
        return cleaned
