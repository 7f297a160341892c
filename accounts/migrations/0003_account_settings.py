# Account settings (language, challenge emails, chat, online status), the address
# waiting for its verification link, and the mark of a deleted (anonymised) account.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_ratings_and_external_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="language",
            field=models.CharField(
                choices=[
                    ("en", "English"),
                    ("mk", "Македонски"),
                    ("sr-latn", "Srpski (latinica)"),
                    ("sr-cyrl", "Српски (ћирилица)"),
                    ("pl", "Polski"),
                ],
                default="en",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="profile",
            name="email_challenges",
            field=models.BooleanField(
                default=True, help_text="Email me when someone challenges me."
            ),
        ),
        migrations.AddField(
            model_name="profile",
            name="chat_enabled",
            field=models.BooleanField(default=True, help_text="Show the table chat."),
        ),
        migrations.AddField(
            model_name="profile",
            name="show_online",
            field=models.BooleanField(default=True, help_text="Let others see when I am online."),
        ),
        migrations.AddField(
            model_name="profile",
            name="pending_email",
            field=models.EmailField(
                blank=True,
                help_text="An address waiting for its verification link.",
                max_length=254,
            ),
        ),
        migrations.AddField(
            model_name="profile",
            name="deleted_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
