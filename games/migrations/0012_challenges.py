import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import games.models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_rules_and_chips"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Challenge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "public_id",
                    models.CharField(
                        default=games.models.new_public_id,
                        editable=False,
                        max_length=16,
                        unique=True,
                    ),
                ),
                ("preset", models.CharField(max_length=32)),
                ("overrides", models.JSONField(blank=True, default=dict)),
                ("bots", models.JSONField(blank=True, default=list)),
                ("players", models.PositiveSmallIntegerField()),
                (
                    "visibility",
                    models.CharField(
                        choices=[("public", "Public"), ("private", "Private")],
                        default="public",
                        max_length=10,
                    ),
                ),
                (
                    "time_control",
                    models.CharField(
                        choices=[("live", "Live"), ("correspondence", "Correspondence")],
                        default="correspondence",
                        max_length=16,
                    ),
                ),
                ("seconds_per_turn", models.PositiveIntegerField(blank=True, null=True)),
                ("days_per_move", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("time_bank_s", models.PositiveIntegerField(blank=True, null=True)),
                ("rated", models.BooleanField(default=False)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Pending"),
                            ("accepted", "Accepted"),
                            ("declined", "Declined"),
                            ("cancelled", "Cancelled"),
                        ],
                        default="pending",
                        max_length=10,
                    ),
                ),
                (
                    "decline_reason",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("generic", "I am not accepting challenges at the moment."),
                            (
                                "later",
                                "This is not the right time for me, please ask again later.",
                            ),
                            ("too_fast", "This time control is too fast for me."),
                            ("too_slow", "This time control is too slow for me."),
                            (
                                "time_control",
                                "I am not accepting challenges with this time control.",
                            ),
                            ("rated", "Please send me a rated challenge instead."),
                            ("casual", "Please send me a casual challenge instead."),
                            ("rules", "I am not accepting challenges with these rules."),
                            ("no_bot", "I am not accepting challenges from bots."),
                            ("only_bot", "I am only accepting challenges from bots."),
                        ],
                        default="",
                        max_length=16,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "accepted_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "challenger",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="challenges_sent",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "destination",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="challenges_received",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="challenge",
                        to="games.game",
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(
                        condition=models.Q(("status", "pending")),
                        fields=["destination", "-created_at"],
                        name="challenge_pending_to",
                    ),
                    models.Index(
                        condition=models.Q(("status", "pending")),
                        fields=["challenger", "-created_at"],
                        name="challenge_pending_from",
                    ),
                    models.Index(
                        condition=models.Q(("destination__isnull", True), ("status", "pending")),
                        fields=["-created_at"],
                        name="challenge_open",
                    ),
                ],
            },
        ),
    ]
