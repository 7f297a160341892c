import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# The chip ledger is append-only: on PostgreSQL the database itself refuses to change
# or delete a row (TRUNCATE, which only clears a whole test database, is not refused).
APPEND_ONLY = """
CREATE FUNCTION games_chipledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the chip ledger is append-only: % refused', TG_OP;
END
$$;
CREATE TRIGGER games_chipledger_append_only
    BEFORE UPDATE OR DELETE ON games_chipledger
    FOR EACH ROW EXECUTE FUNCTION games_chipledger_append_only();
"""
APPEND_ONLY_REVERSE = """
DROP TRIGGER IF EXISTS games_chipledger_append_only ON games_chipledger;
DROP FUNCTION IF EXISTS games_chipledger_append_only();
"""


def _on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_notifications"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="seating_draw",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="stake",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.CreateModel(
            name="ChipAccount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("balance", models.BigIntegerField(default=0)),
                ("topped_up_on", models.DateField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="chip_account",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="ChipLedger",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("grant", "Grant"),
                            ("top_up", "Top Up"),
                            ("stake", "Stake"),
                            ("payout", "Payout"),
                            ("refund", "Refund"),
                        ],
                        max_length=8,
                    ),
                ),
                ("amount", models.BigIntegerField()),
                ("balance_after", models.BigIntegerField()),
                ("day", models.DateField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "account",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger",
                        to="games.chipaccount",
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="chip_movements",
                        to="games.game",
                    ),
                ),
            ],
        ),
        migrations.AddConstraint(
            model_name="chipaccount",
            constraint=models.CheckConstraint(
                condition=models.Q(("balance__gte", 0)), name="chip_account_balance_not_negative"
            ),
        ),
        migrations.AddIndex(
            model_name="chipledger",
            index=models.Index(fields=["account", "-id"], name="chip_ledger_account"),
        ),
        migrations.AddConstraint(
            model_name="chipledger",
            constraint=models.UniqueConstraint(
                condition=models.Q(("kind", "grant")),
                fields=("account",),
                name="chip_ledger_one_grant",
            ),
        ),
        migrations.AddConstraint(
            model_name="chipledger",
            constraint=models.UniqueConstraint(
                condition=models.Q(("kind", "top_up")),
                fields=("account", "day"),
                name="chip_ledger_one_top_up_a_day",
            ),
        ),
        migrations.AddConstraint(
            model_name="chipledger",
            constraint=models.UniqueConstraint(
                condition=models.Q(("game__isnull", False)),
                fields=("account", "game", "kind"),
                name="chip_ledger_once_per_game",
            ),
        ),
        migrations.AddConstraint(
            model_name="chipledger",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount", 0), _negated=True),
                name="chip_ledger_amount_not_zero",
            ),
        ),
        migrations.RunPython(
            _on_postgresql(APPEND_ONLY), _on_postgresql(APPEND_ONLY_REVERSE), elidable=False
        ),
    ]
