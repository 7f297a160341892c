// The admin's two-list widget (Django 5.2's SelectFilter2.js) names the field it fills
// ("Available %s": "permissions", "groups"). Listed here, makemessages collects Django's
// msgids into the site's script catalogue, which the admin's reads after Django's: ours
// name the field in parentheses or after a colon, right for any gender and number
// (remi_site/admin_model_words.py says why). This file is never served.
gettext("Available %s");
gettext('Choose %s by selecting them and then select the "Choose" arrow button.');
gettext("Type into this box to filter down the list of available %s.");
gettext("Choose all %s");
gettext("Choose selected %s");
gettext("Remove selected %s");
gettext("Chosen %s");
gettext('Remove %s by selecting them and then select the "Remove" arrow button.');
gettext("Type into this box to filter down the list of selected %s.");
gettext("Remove all %s");
