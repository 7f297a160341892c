"""API tokens get scopes. Every token made before this keeps every scope, so no
program that uses one breaks: adding the column fills each existing row with the
default, the list of all scopes, and the data step below says so once more for a
database where that default was not applied (the column made elsewhere)."""

import django.contrib.postgres.fields
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
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.CharField(
                    choices=[
                        ("read", "Read: your games, events and streams"),
                        ("play", "Play: moves, turns, resigning, chat"),
                        (
                            "challenge",
                            "Challenge: send, accept and decline challenges, open tables, "
                            "rematches",
                        ),
                        ("bot:play", "Bot play: play as a bot account, and turn this account into one"),
                        ("account", "Account: tokens, profile, settings, deletion"),
                    ],
                    max_length=16,
                ),
                default=accounts.scopes.all_scopes,
                size=None,
            ),
        ),
        migrations.RunPython(every_scope_for_existing_tokens, migrations.RunPython.noop),
    ]
