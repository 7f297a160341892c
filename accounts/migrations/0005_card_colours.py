# The four-colour deck: each account chooses how the suits are coloured.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_moderation")]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="card_colours",
            field=models.CharField(
                choices=[
                    ("two", "Two colours: ♠ ♣ black, ♥ ♦ red"),
                    ("four", "Four colours: ♠ black, ♥ red, ♦ blue, ♣ green"),
                ],
                default="two",
                help_text="The colours of the suits on the cards.",
                max_length=4,
            ),
        ),
    ]
