"""A moderator's look at hidden cards is a "moderation access", plural "accesses" (the
admin's index said "Moderation accesss")."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_deal_state_text"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="moderationaccess",
            options={
                "ordering": ["-created_at", "-id"],
                "permissions": [
                    (
                        "view_hidden_cards",
                        "Can see hidden cards (every hand, the stock) in the admin",
                    )
                ],
                "verbose_name": "moderation access",
                "verbose_name_plural": "moderation accesses",
            },
        ),
    ]
