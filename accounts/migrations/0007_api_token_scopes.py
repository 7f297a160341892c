"""API tokens get scopes. Every token made before this keeps every scope, so no
program that uses one breaks: adding the column fills each existing row with the
default, the list of all scopes, and the data step below says so once more for a
database where that default was not applied (the column made elsewhere)."""

from django.db import migrations, models

import accounts.scopes


def every_scope_for_existing_tokens(apps, schema_editor):
    ApiToken = apps.get_model("accounts", "ApiToken")
    ApiToken.objects.update(scopes=accounts.scopes.all_scopes())


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_moderation_warnings_claims_appeals"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="scopes",
            field=models.JSONField(default=accounts.scopes.all_scopes),
        ),
        migrations.RunPython(every_scope_for_existing_tokens, migrations.RunPython.noop),
    ]
