# A challenge to several accounts (a rematch of a bigger table): each invited account
# answers for itself; a pending challenge may end by itself at expires_at.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_challenge_rematch_of'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ChallengeInvitee',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('answer', models.CharField(choices=[('pending', 'Pending'), ('accepted', 'Accepted'), ('declined', 'Declined'), ('unavailable', 'Unavailable')], default='pending', max_length=12)),
                ('answered_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'ordering': ('position',),
            },
        ),
        migrations.AddField(
            model_name='challenge',
            name='expires_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='challenge',
            name='cancel_reason',
            field=models.CharField(blank=True, choices=[('banned', "The other player's account is suspended."), ('deleted', 'The other player deleted their account.'), ('closed', "The other player's account was closed."), ('playban', 'A player of this challenge may not play rated games for now.'), ('expired', 'Not everyone answered in time.')], default='', max_length=16),
        ),
        migrations.AddIndex(
            model_name='challenge',
            index=models.Index(condition=models.Q(('expires_at__isnull', False), ('status', 'pending')), fields=['expires_at'], name='challenge_pending_expiry'),
        ),
        migrations.AddField(
            model_name='challengeinvitee',
            name='challenge',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitees', to='games.challenge'),
        ),
        migrations.AddField(
            model_name='challengeinvitee',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='challenge_invitations', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddIndex(
            model_name='challengeinvitee',
            index=models.Index(fields=['user', 'challenge'], name='challenge_invitee_user'),
        ),
        migrations.AddConstraint(
            model_name='challengeinvitee',
            constraint=models.UniqueConstraint(fields=('challenge', 'user'), name='challenge_invitee_once'),
        ),
    ]
