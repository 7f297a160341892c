# A challenge may be the rematch of a finished game, offered once per game.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_challenge_cancel_reason'),
    ]

    operations = [
        migrations.AddField(
            model_name='challenge',
            name='rematch_of',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rematch', to='games.game'),
        ),
    ]
