import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import games.models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_read_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="playersettings",
            name="calendar_secret",
            field=models.CharField(blank=True, max_length=64, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="email_game_over",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="email_strikes",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="push_challenges",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="push_game_over",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="push_turns",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="reminder_hours",
            field=models.JSONField(default=games.models.default_reminder_hours),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="time_zone",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.CreateModel(
            name="PushSubscription",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("endpoint", models.URLField(max_length=1024, unique=True)),
                ("p256dh", models.CharField(max_length=128)),
                ("auth", models.CharField(max_length=64)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="push_subscriptions",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="GameMute",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="mutes",
                        to="games.game",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("user", "game"), name="game_mute_unique_user")
                ],
            },
        ),
        migrations.CreateModel(
            name="SentReminder",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("deadline_at", models.DateTimeField()),
                ("lead_hours", models.PositiveSmallIntegerField()),
                ("sent_at", models.DateTimeField(auto_now_add=True)),
                (
                    "seat",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.seat",
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["deadline_at"], name="sent_reminder_deadline")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("seat", "deadline_at", "lead_hours"),
                        name="sent_reminder_unique_key",
                    )
                ],
            },
        ),
    ]
