#!/usr/bin/env bash
# Collect every marked string into the four catalogues of each language (the site's
# templates, the scripts, and the games and accounts apps), write the Serbian Cyrillic
# catalogues from the Latin ones, and compile them all. Needs GNU gettext (a developer's
# machine only: the compiled .mo files are committed).
#
#   bash scripts/update_catalogues.sh           collect, transliterate, compile
#   bash scripts/update_catalogues.sh compile   only transliterate and compile
#
# Between the two: translate the new (empty) entries of mk, sr_Latn and pl;
# tests/remi_site/test_translations.py lists any that are left.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
# django-admin beside the interpreter, as an absolute path (the apps' step runs elsewhere).
DJANGO_ADMIN="$(cd "$(dirname "$PY")" && pwd)/django-admin"
LANGS=(-l mk -l sr_Latn -l sr_Cyrl -l pl)

if [[ "${1:-}" != compile ]]; then
    "$PY" manage.py makemessages "${LANGS[@]}" --no-obsolete \
        --ignore 'games/*.*' --ignore 'accounts/*.*' --ignore 'static/*' --ignore 'tests/*' \
        --ignore 'bench/*' --ignore 'examples/*' --ignore 'scripts/*' --ignore 'docs/*' \
        --ignore '.venv*' --ignore 'var/*' --ignore 'staticfiles/*' --ignore 'artifacts/*'
    "$PY" manage.py makemessages -d djangojs "${LANGS[@]}" --no-obsolete \
        --ignore '.venv*' --ignore 'staticfiles' --ignore 'node_modules' --ignore 'tests' \
        --ignore 'var' --ignore 'bench' --ignore 'static/sw.js' --ignore 'artifacts'
    for app in games accounts; do
        # django-admin, not ``python -m django``: run from the app's folder, the latter
        # would put it first on the path (accounts/selectors.py hides the stdlib's).
        (cd "$app" && DJANGO_SETTINGS_MODULE=remi_site.settings PYTHONPATH=.. "$DJANGO_ADMIN" \
            makemessages "${LANGS[@]}" --no-obsolete \
            --ignore=migrations --ignore=engine)
    done
fi

for catalogue in locale/sr_Latn/LC_MESSAGES/*.po {games,accounts}/locale/sr_Latn/LC_MESSAGES/*.po; do
    "$PY" scripts/sr_latn_to_cyrl.py "$catalogue" "${catalogue/sr_Latn/sr_Cyrl}"
done
for po in locale/*/LC_MESSAGES/*.po {games,accounts}/locale/*/LC_MESSAGES/*.po; do
    msgfmt --check-format -o "${po%.po}.mo" "$po"
done
