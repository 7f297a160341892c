"""Django's own words (its msgids, exactly as Django 5.2 writes them) said the site's way,
in the site's catalogue.

Its Macedonian catalogue lacks the words of its newer admin pages and controls ("Skip to
main content", "Toggle theme", the password-based log-in) and its password rules (it
holds older msgids with a straight apostrophe); its Serbian and Polish say "Vi"
("Unesite", "Vaša lozinka") where the site says "ti". Listed here, the site's catalogue
carries them in every language: Macedonian written for it, Serbian and Polish Django's
own in the "ti" form. They must be in the site's catalogue, not an app's: Django reads
the catalogues of ``LOCALE_PATHS`` first and the apps' in the order of
``INSTALLED_APPS``, where Django's own come before accounts and games, so an app's
translation of a text Django translates too is never read
(tests/remi_site/test_our_words_win.py). tests/moderation/test_admin_languages.py finds
any admin word still in English; every message that names a model is in
remi_site/admin_model_words.py.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

DJANGO_ADMIN_WORDS = (
    gettext_noop("Not empty"),
    gettext_noop("Changed “%(object)s” — %(changes)s"),
    gettext_noop("Select this object for an action - {}"),
    gettext_noop("Breadcrumbs"),
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
    gettext_noop("After you’ve created a user, you’ll be able to edit more user options."),
    gettext_noop("Error:"),
    gettext_noop("Set password"),
    gettext_noop(
        "This action will <strong>enable</strong> password-based authentication for this user."
    ),
    gettext_noop("Disable password-based authentication"),
    gettext_noop("Enable password-based authentication"),
    gettext_noop("Skip to main content"),
    gettext_noop("Hide counts"),
    gettext_noop("Show counts"),
    gettext_noop("Toggle theme (current theme: auto)"),
    gettext_noop("Toggle theme (current theme: light)"),
    gettext_noop("Toggle theme (current theme: dark)"),
    gettext_noop("Added:"),
    gettext_noop("Changed:"),
    gettext_noop("Deleted:"),
    gettext_noop("Forgotten your login credentials?"),
    gettext_noop("Toggle navigation"),
    gettext_noop("Sidebar"),
    gettext_noop("Filter navigation items"),
    gettext_noop(
        "This object doesn’t have a change history. It probably wasn’t added via this admin site."
    ),
    gettext_noop("Thanks for spending some quality time with the web site today."),
    gettext_noop(
        "Please enter your old password, for security’s sake, and then enter your new "
        "password twice so we can verify you typed it in correctly."
    ),
    gettext_noop(
        "We’ve emailed you instructions for setting your password, if an account exists with "
        "the email you entered. You should receive them shortly."
    ),
    gettext_noop(
        "If you don’t receive an email, please make sure you’ve entered the address you "
        "registered with, and check your spam folder."
    ),
    gettext_noop("In case you’ve forgotten, you are:"),
    gettext_noop("Select all objects on this page for an action"),
    gettext_noop("Conflicting form data submitted. Please try again."),
    gettext_noop("Password-based authentication was disabled."),
    gettext_noop("Set password: %s"),
    gettext_noop("Reset password"),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop(
        "Whether the user will be able to authenticate using a password or not. If disabled, "
        "they may still be able to authenticate using other backends, such as Single Sign-On "
        "or LDAP."
    ),
    gettext_noop("Password-based authentication"),
    gettext_noop("Enabled"),
    gettext_noop("Disabled"),
    gettext_noop("Raw passwords are not stored, so there is no way to see the user’s password."),
    gettext_noop("Enable password-based authentication for this user by setting a password."),
    gettext_noop("variety"),
    gettext_noop("block size"),
    gettext_noop(
        "Enter a valid username. This value may contain only unaccented lowercase a-z and "
        "uppercase A-Z letters, numbers, and @/./+/-/_ characters."
    ),
    # ngettext_lazy: the one plural marker makemessages collects without a number.
    ngettext_lazy("entry", "entries"),
)

# Django's password rules and refusals: its Macedonian catalogue holds older msgids with
# a straight apostrophe, and its Serbian and Polish say "Vi" ("Vaša lozinka").
DJANGO_PASSWORD_WORDS = (
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    # ngettext_lazy: the one plural marker makemessages collects without a number.
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
    ),
)

# The API's refusal of a token; knox's and DRF's catalogues hold it too, in other words.
API_WORDS = (gettext_noop("Invalid token."),)
