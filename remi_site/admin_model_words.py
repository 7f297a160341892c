"""The admin's messages that name a model or a field (Django 5.2's msgids), in the site's
catalogues.

Django puts a model's name (its verbose_name) into sentences. Polish and Serbian decline
a noun after a verb ("Dodaj grę"), and their verbs and adjectives, like Macedonian's,
agree with the noun's gender: Django's catalogues leave the name in the nominative after
the verb ("Dodaj gra") or write every ending at once ("został(a)(-ło) dodany(-na)").
Ours are right for any model: the name comes after a colon, where the nominative is
right ("Dodaj: gra", "Pomyślnie dodano: gra „X”."), or in parentheses after a word of
our own ("Usunięcie obiektu (gra „X”)"), and the verb is impersonal (Polish "dodano",
Serbian and Macedonian neuter "dodato", "додадено"). Macedonian said to "ti".

The site's catalogues are read before Django's; the apps' come after Django's admin, so
these could not live in the accounts' catalogue. The field names of the permissions'
two-list widget are the script catalogue's: remi_site/admin_model_words.js.
tests/moderation/test_admin_model_words.py finds every such msgid of Django's and checks
each language's.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

ADMIN_MODEL_WORDS = (
    # Titles.
    gettext_noop("Add %s"),
    gettext_noop("Add %(name)s"),
    gettext_noop("Change %s"),
    gettext_noop("View %s"),
    gettext_noop("Select %s"),
    gettext_noop("Select %s to change"),
    gettext_noop("Select %s to view"),
    gettext_noop("Cannot delete %(name)s"),
    gettext_noop("Models in the %(name)s application"),
    # What a page says when done.
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
    gettext_noop("%(name)s with ID “%(key)s” doesn’t exist. Perhaps it was deleted?"),
    gettext_noop("Successfully deleted %(count)d %(items)s."),
    # ngettext_lazy: the one plural marker makemessages collects without a number.
    ngettext_lazy(
        "%(count)s %(name)s was changed successfully.",
        "%(count)s %(name)s were changed successfully.",
    ),
    # The history's entries.
    gettext_noop("Added {name} “{object}”."),
    gettext_noop("Changed {fields} for {name} “{object}”."),
    gettext_noop("Deleted {name} “{object}”."),
    # The delete action and the delete confirmation pages.
    gettext_noop("Delete selected %(verbose_name_plural)s"),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would result in deleting related "
        "objects, but your account doesn't have permission to delete the following types of "
        "objects:"
    ),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would require deleting the "
        "following protected related objects:"
    ),
    gettext_noop(
        'Are you sure you want to delete the %(object_name)s "%(escaped_object)s"? All of '
        "the following related items will be deleted:"
    ),
    gettext_noop(
        "Deleting the selected %(objects_name)s would result in deleting related objects, "
        "but your account doesn't have permission to delete the following types of objects:"
    ),
    gettext_noop(
        "Deleting the selected %(objects_name)s would require deleting the following "
        "protected related objects:"
    ),
    gettext_noop(
        "Are you sure you want to delete the selected %(objects_name)s? All of the following "
        "objects and their related items will be deleted:"
    ),
    gettext_noop("%(class_name)s %(instance)s"),
    gettext_noop(
        "Deleting %(class_name)s %(instance)s would require deleting the following protected "
        "related objects: %(related_objects)s"
    ),
    # The buttons beside a related field, an inline's "add" link, a list filter's heading.
    gettext_noop("Change selected %(model)s"),
    gettext_noop("Add another %(model)s"),
    gettext_noop("Delete selected %(model)s"),
    gettext_noop("View selected %(model)s"),
    gettext_noop("Add another %(verbose_name)s"),
    gettext_noop(" By %(filter_title)s "),
)
