from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0013_queue_and_notes")]

    operations: list = [
        migrations.AddField(
            model_name="game",
            name="deal_over_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="next_deal_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="deal_ready",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("next_deal_at__isnull", False), ("status", "active")),
                fields=["next_deal_at"],
                name="game_active_next_deal",
            ),
        ),
    ]
