# The games' names for the admin's readers, in their language: every model's and
# field's name and help text, and the labels of the choices (a move's kind, what a
# moderator saw and how a wait for an absent player ended are choices now). No column
# changes: Django keeps these in its state only.
# Each model's fields get their new words in one Relabel (remi_site/relabel_operation.py):
# an AlterField per field re-rendered the models 289 times and doubled a new database's migrate.
import django.db.models.deletion
import games.fields
import games.models.live
import games.models.play
import remi_site.relabel_operation
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('games', '0024_bot_decision'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='absentwait',
            options={'verbose_name': 'wait for an absent player', 'verbose_name_plural': 'waits for absent players'},
        ),
        migrations.AlterModelOptions(
            name='botdecision',
            options={'verbose_name': 'bot decision', 'verbose_name_plural': 'bot decisions'},
        ),
        migrations.AlterModelOptions(
            name='botrating',
            options={'verbose_name': 'bot rating', 'verbose_name_plural': 'bot ratings'},
        ),
        migrations.AlterModelOptions(
            name='botratingwatermark',
            options={'verbose_name': 'progress of the bot ratings', 'verbose_name_plural': 'progress of the bot ratings'},
        ),
        migrations.AlterModelOptions(
            name='challenge',
            options={'verbose_name': 'challenge', 'verbose_name_plural': 'challenges'},
        ),
        migrations.AlterModelOptions(
            name='challengeinvitee',
            options={'ordering': ('position',), 'verbose_name': 'invited player', 'verbose_name_plural': 'invited players'},
        ),
        migrations.AlterModelOptions(
            name='chatmessage',
            options={'ordering': ['id'], 'verbose_name': 'chat message', 'verbose_name_plural': 'chat messages'},
        ),
        migrations.AlterModelOptions(
            name='chipaccount',
            options={'verbose_name': 'chip account', 'verbose_name_plural': 'chip accounts'},
        ),
        migrations.AlterModelOptions(
            name='chipledger',
            options={'verbose_name': 'chip movement', 'verbose_name_plural': 'chip movements'},
        ),
        migrations.AlterModelOptions(
            name='deal',
            options={'ordering': ['number'], 'verbose_name': 'deal', 'verbose_name_plural': 'deals'},
        ),
        migrations.AlterModelOptions(
            name='dealreview',
            options={'verbose_name': 'deal review', 'verbose_name_plural': 'deal reviews'},
        ),
        migrations.AlterModelOptions(
            name='extratimerequest',
            options={'verbose_name': 'request for more time', 'verbose_name_plural': 'requests for more time'},
        ),
        migrations.AlterModelOptions(
            name='game',
            options={'verbose_name': 'game', 'verbose_name_plural': 'games'},
        ),
        migrations.AlterModelOptions(
            name='gamemute',
            options={'verbose_name': 'muted game', 'verbose_name_plural': 'muted games'},
        ),
        migrations.AlterModelOptions(
            name='move',
            options={'ordering': ['ply'], 'verbose_name': 'move', 'verbose_name_plural': 'moves'},
        ),
        migrations.AlterModelOptions(
            name='note',
            options={'verbose_name': 'private note', 'verbose_name_plural': 'private notes'},
        ),
        migrations.AlterModelOptions(
            name='playersettings',
            options={'verbose_name': 'player settings', 'verbose_name_plural': 'player settings'},
        ),
        migrations.AlterModelOptions(
            name='playerstats',
            options={'verbose_name': 'player statistics', 'verbose_name_plural': 'player statistics'},
        ),
        migrations.AlterModelOptions(
            name='premove',
            options={'verbose_name': 'queued draw', 'verbose_name_plural': 'queued draws'},
        ),
        migrations.AlterModelOptions(
            name='pushsubscription',
            options={'verbose_name': 'browser notification subscription', 'verbose_name_plural': 'browser notification subscriptions'},
        ),
        migrations.AlterModelOptions(
            name='seat',
            options={'ordering': ['position'], 'verbose_name': 'seat', 'verbose_name_plural': 'seats'},
        ),
        migrations.AlterModelOptions(
            name='sentreminder',
            options={'verbose_name': 'reminder sent', 'verbose_name_plural': 'reminders sent'},
        ),
        remi_site.relabel_operation.Relabel(
            model_name='absentwait',
            fields=[
                ('choice', models.CharField(blank=True, choices=[('wait', 'Wait longer'), ('continue', 'Continue without the player'), ('end', 'End the game'), ('default', 'Nobody chose: the default')], default='', max_length=8, verbose_name='choice')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='decided by')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='absent_waits', to='games.game', verbose_name='game')),
                ('ply', models.PositiveIntegerField(verbose_name='move number')),
                ('position', models.PositiveSmallIntegerField(verbose_name='absent seat')),
                ('stage', models.CharField(choices=[('waiting', 'Waiting for the player'), ('choice', 'The host chooses'), ('decided', 'Decided')], default='waiting', max_length=8, verbose_name='stage')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('waits', models.PositiveSmallIntegerField(default=1, verbose_name='waits granted')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='botdecision',
            fields=[
                ('actions', games.fields.JSONTextField(verbose_name='actions')),
                ('due_at', models.DateTimeField(verbose_name='to be played at')),
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='bot_decision', serialize=False, to='games.game', verbose_name='game')),
                ('ply', models.PositiveIntegerField(verbose_name='move number')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='botrating',
            fields=[
                ('games', models.PositiveIntegerField(default=0, help_text='Games against people counted.', verbose_name='games')),
                ('mu', models.FloatField(verbose_name='skill estimate (μ)')),
                ('rating', models.IntegerField(help_text='The rating shown, from the estimate and its uncertainty.', verbose_name='rating')),
                ('rules', models.CharField(help_text="The rule family: the games' preset.", max_length=32, verbose_name='rules')),
                ('sigma', models.FloatField(verbose_name='uncertainty (σ)')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('user', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='bot')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='botratingwatermark',
            fields=[
                ('last_finished_at', models.DateTimeField(blank=True, null=True, verbose_name='last game counted finished at')),
                ('last_game_id', models.BigIntegerField(default=0, verbose_name='ID of the last game counted')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='challenge',
            fields=[
                ('accepted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='accepted by')),
                ('bots', models.JSONField(blank=True, default=list, verbose_name='built-in bots seated too')),
                ('cancel_reason', models.CharField(blank=True, choices=[('banned', "The other player's account is suspended."), ('deleted', 'The other player deleted their account.'), ('closed', "The other player's account was closed."), ('playban', 'A player of this challenge may not play rated games for now.'), ('expired', 'Not everyone answered in time.')], default='', help_text='Empty when the challenger cancelled it.', max_length=16, verbose_name='why the site cancelled it')),
                ('challenger', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='challenges_sent', to=settings.AUTH_USER_MODEL, verbose_name='challenger')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('days_per_move', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='days per move')),
                ('decline_reason', models.CharField(blank=True, choices=[('generic', 'I am not accepting challenges at the moment.'), ('later', 'This is not the right time for me, please ask again later.'), ('too_fast', 'This time control is too fast for me.'), ('too_slow', 'This time control is too slow for me.'), ('time_control', 'I am not accepting challenges with this time control.'), ('rated', 'Please send me a rated challenge instead.'), ('casual', 'Please send me a casual challenge instead.'), ('rules', 'I am not accepting challenges with these rules.'), ('no_bot', 'I am not accepting challenges from bots.'), ('only_bot', 'I am only accepting challenges from bots.')], default='', max_length=16, verbose_name='why it was declined')),
                ('destination', models.ForeignKey(blank=True, help_text='Empty: an open challenge, which anyone but the challenger may accept.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='challenges_received', to=settings.AUTH_USER_MODEL, verbose_name='challenged player')),
                ('expires_at', models.DateTimeField(blank=True, help_text='Empty: never.', null=True, verbose_name='expires at')),
                ('game', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='challenge', to='games.game', verbose_name='game')),
                ('overrides', models.JSONField(blank=True, default=dict, verbose_name='house rules')),
                ('players', models.PositiveSmallIntegerField(verbose_name='players')),
                ('preset', models.CharField(max_length=32, verbose_name='rules')),
                ('public_id', models.CharField(default=games.models.play.new_public_id, editable=False, max_length=16, unique=True, verbose_name='public ID')),
                ('rated', models.BooleanField(default=False, verbose_name='rated')),
                ('rematch_of', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rematch', to='games.game', verbose_name='rematch of')),
                ('seconds_per_turn', models.PositiveIntegerField(blank=True, null=True, verbose_name='seconds per turn')),
                ('status', models.CharField(choices=[('pending', 'Waiting for an answer'), ('accepted', 'Accepted'), ('declined', 'Declined'), ('cancelled', 'Cancelled')], default='pending', max_length=10, verbose_name='status')),
                ('time_bank_s', models.PositiveIntegerField(blank=True, null=True, verbose_name='time bank, in seconds')),
                ('time_control', models.CharField(choices=[('live', 'Live'), ('correspondence', 'Correspondence')], default='correspondence', max_length=16, verbose_name='time control')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('visibility', models.CharField(choices=[('public', 'Public'), ('private', 'Private')], default='public', max_length=10, verbose_name='visibility')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='challengeinvitee',
            fields=[
                ('answer', models.CharField(choices=[('pending', 'Not answered yet'), ('accepted', 'Accepted'), ('declined', 'Declined'), ('unavailable', 'No longer available')], default='pending', max_length=12, verbose_name='answer')),
                ('answered_at', models.DateTimeField(blank=True, null=True, verbose_name='answered at')),
                ('challenge', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitees', to='games.challenge', verbose_name='challenge')),
                ('position', models.PositiveSmallIntegerField(help_text='The invited players take their seats in this order.', verbose_name='order')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='challenge_invitations', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='chatmessage',
            fields=[
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='sent at')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_messages', to='games.game', verbose_name='game')),
                ('hidden_at', models.DateTimeField(blank=True, null=True, verbose_name='hidden at')),
                ('hidden_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='hidden by')),
                ('ply', models.PositiveIntegerField(help_text='The number of moves logged in the game when it was sent.', verbose_name='move number')),
                ('text', models.CharField(max_length=300, verbose_name='text')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='chat_messages', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='chipaccount',
            fields=[
                ('balance', models.BigIntegerField(default=0, verbose_name='balance')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('topped_up_on', models.DateField(blank=True, help_text='The day, in UTC.', null=True, verbose_name='last daily top-up')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='chip_account', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='chipledger',
            fields=[
                ('account', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='games.chipaccount', verbose_name='chip account')),
                ('amount', models.BigIntegerField(help_text='What the movement added to the balance (negative: took).', verbose_name='amount')),
                ('balance_after', models.BigIntegerField(verbose_name='balance after')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('day', models.DateField(blank=True, null=True, verbose_name='day of the top-up')),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='chip_movements', to='games.game', verbose_name='game')),
                ('kind', models.CharField(choices=[('grant', 'Starting grant'), ('top_up', 'Daily top-up'), ('stake', 'Stake'), ('payout', 'Winnings'), ('refund', 'Stake back')], max_length=8, verbose_name='kind')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='deal',
            fields=[
                ('card_ids', models.JSONField(verbose_name='card IDs')),
                ('dealer', models.PositiveSmallIntegerField(help_text="The dealer's seat.", verbose_name='dealer')),
                ('deck', models.JSONField(verbose_name='deck order')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                ('game', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='deals', to='games.game', verbose_name='game')),
                ('number', models.PositiveSmallIntegerField(verbose_name='number')),
                ('reshuffle_seeds', models.JSONField(default=list, verbose_name='reshuffle seeds')),
                ('result', models.JSONField(blank=True, null=True, verbose_name='result')),
                ('started_at', models.DateTimeField(auto_now_add=True, verbose_name='started at')),
                ('state', games.fields.JSONTextField(verbose_name='state')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='dealreview',
            fields=[
                ('compute_ms', models.PositiveIntegerField(default=0, verbose_name='computing time, in milliseconds')),
                ('computed_at', models.DateTimeField(verbose_name='computed at')),
                ('deal', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='review', to='games.deal', verbose_name='deal')),
                ('turns', games.fields.JSONTextField(verbose_name='turns')),
                ('unexamined', models.PositiveIntegerField(default=0, verbose_name='turns not examined')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='extratimerequest',
            fields=[
                ('answered_at', models.DateTimeField(blank=True, null=True, verbose_name='answered at')),
                ('answered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='answered by')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('days', models.PositiveSmallIntegerField(verbose_name='days asked for')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='extra_time_requests', to='games.game', verbose_name='game')),
                ('ply', models.PositiveIntegerField(help_text='The number of moves logged when it was asked for.', verbose_name='move number')),
                ('seat', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.seat', verbose_name='seat')),
                ('status', models.CharField(choices=[('pending', 'Waiting for an answer'), ('granted', 'Granted'), ('declined', 'Declined'), ('expired', 'The turn passed first')], default='pending', max_length=8, verbose_name='status')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='game',
            fields=[
                ('absent_wait_s', models.PositiveIntegerField(blank=True, help_text="Empty: the site's default.", null=True, verbose_name='wait for an absent player, in seconds')),
                ('bot_to_move', models.BooleanField(default=False, verbose_name='a built-in bot to move')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('days_per_move', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='days per move')),
                ('deadline_at', models.DateTimeField(blank=True, null=True, verbose_name='turn deadline')),
                ('deal_number', models.PositiveSmallIntegerField(default=0, help_text='The deal being played, or the last one; 0 before the start.', verbose_name='deal number')),
                ('deal_over_at', models.DateTimeField(blank=True, null=True, verbose_name='last deal ended at')),
                ('deal_ready', models.JSONField(blank=True, default=list, verbose_name='seats ready for the next deal')),
                ('end_reason', models.CharField(blank=True, default='', max_length=16, verbose_name='end reason')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                ('invite_code', models.CharField(blank=True, default='', max_length=16, verbose_name='invite code')),
                ('next_deal_at', models.DateTimeField(blank=True, null=True, verbose_name='next deal at')),
                ('owner', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games_created', to=settings.AUTH_USER_MODEL, verbose_name='host')),
                ('players', models.PositiveSmallIntegerField(verbose_name='players')),
                ('ply', models.PositiveIntegerField(default=0, help_text='The number of moves logged so far.', verbose_name='moves logged')),
                ('preset', models.CharField(help_text="The preset the game's rules were copied from.", max_length=32, verbose_name='rules')),
                ('public_id', models.CharField(default=games.models.play.new_public_id, editable=False, max_length=16, unique=True, verbose_name='public ID')),
                ('rated', models.BooleanField(default=False, verbose_name='rated')),
                ('ruleset', models.JSONField(help_text='The whole ruleset as it was when the game was created, house rules included.', verbose_name='ruleset')),
                ('seating_draw', models.JSONField(blank=True, help_text='Before the first deal, where the rules seat the players by drawn cards.', null=True, verbose_name='cards drawn for the seats')),
                ('seconds_per_turn', models.PositiveIntegerField(blank=True, null=True, verbose_name='seconds per turn')),
                ('stake', models.PositiveIntegerField(default=0, help_text='Chips each player puts into the pot (0: none).', verbose_name='stake')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                ('status', models.CharField(choices=[('lobby', 'In the lobby'), ('active', 'Being played'), ('finished', 'Finished'), ('aborted', 'Aborted')], default='lobby', max_length=10, verbose_name='status')),
                ('strike_limit', models.PositiveSmallIntegerField(blank=True, help_text="Turns in a row the server may play for a player before their seat is out. Empty: the site's default.", null=True, verbose_name='timeouts allowed')),
                ('time_bank_s', models.PositiveIntegerField(default=0, help_text="Each seat's, for the whole game.", verbose_name='time bank, in seconds')),
                ('time_control', models.CharField(choices=[('live', 'Live'), ('correspondence', 'Correspondence')], default='correspondence', max_length=16, verbose_name='time control')),
                ('to_move', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='seat to move')),
                ('turn_started_at', models.DateTimeField(blank=True, null=True, verbose_name='turn started at')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('visibility', models.CharField(choices=[('public', 'Public'), ('private', 'Private')], default='public', max_length=10, verbose_name='visibility')),
                ('winners', models.JSONField(blank=True, default=list, help_text='The winning seats.', verbose_name='winners')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='gamemute',
            fields=[
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='mutes', to='games.game', verbose_name='game')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='moderationaccess',
            fields=[
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='seen at')),
                ('deal', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to='games.deal', verbose_name='deal')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='moderation_accesses', to='games.game', verbose_name='game')),
                ('path', models.CharField(blank=True, default='', help_text='The address of the admin page that showed it.', max_length=255, verbose_name='page')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='moderation_accesses', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                ('what', models.CharField(choices=[('deal_state', 'Every hand and the stock of a deal'), ('move_private', 'What only the mover saw of a move')], max_length=32, verbose_name='what was seen')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='move',
            fields=[
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('deal', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='moves', to='games.deal', verbose_name='deal')),
                ('game', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='moves', to='games.game', verbose_name='game')),
                ('idempotency_key', models.CharField(blank=True, max_length=128, null=True, verbose_name='idempotency key')),
                ('kind', models.CharField(choices=[('draw', 'Draw'), ('take', 'Take the discard'), ('undo', 'Undo the take'), ('lay', 'Lay down'), ('off', 'Lay off'), ('swap', 'Swap a joker'), ('discard', 'Discard'), ('resign', 'Out of the game')], max_length=24, verbose_name='kind')),
                ('payload', models.JSONField(verbose_name='action as sent')),
                ('ply', models.PositiveIntegerField(verbose_name='move number')),
                ('private', models.JSONField(blank=True, null=True, verbose_name='what only the mover saw')),
                ('public', models.JSONField(verbose_name='what everyone sees')),
                ('seat', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='moves', to='games.seat', verbose_name='seat')),
                ('user', models.ForeignKey(blank=True, help_text='Empty: the server played it.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='sent by')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='note',
            fields=[
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game', verbose_name='game')),
                ('text', models.TextField(max_length=2000, verbose_name='text')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='playersettings',
            fields=[
                ('calendar_secret', models.CharField(blank=True, max_length=64, null=True, unique=True, verbose_name='calendar feed secret')),
                ('email_game_over', models.BooleanField(default=True, verbose_name='emails with the result')),
                ('email_strikes', models.BooleanField(default=True, verbose_name='emails when time runs out')),
                ('email_turns', models.CharField(choices=[('each', 'An email for each move'), ('daily', 'One email a day'), ('off', 'None')], default='each', max_length=8, verbose_name="emails about the player's turn")),
                ('last_digest_at', models.DateTimeField(blank=True, null=True, verbose_name='last daily email at')),
                ('push_challenges', models.BooleanField(default=False, verbose_name='browser notifications of challenges')),
                ('push_game_over', models.BooleanField(default=False, verbose_name='browser notifications of the result')),
                ('push_turns', models.BooleanField(default=False, verbose_name='browser notifications of the turn')),
                ('reminder_hours', models.JSONField(default=games.models.live.default_reminder_hours, help_text='When the player is reminded of a deadline.', verbose_name='hours before a deadline')),
                ('reminders', models.BooleanField(default=True, verbose_name='reminders before deadlines')),
                ('time_zone', models.CharField(blank=True, default='', help_text='Empty: UTC.', max_length=64, verbose_name='time zone')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='play_settings', to=settings.AUTH_USER_MODEL, verbose_name='player')),
                ('vacation_accrued_at', models.DateTimeField(auto_now_add=True, verbose_name='vacation days counted at')),
                ('vacation_days', models.FloatField(default=14.0, help_text='As counted at the time below; the allowance grows over time up to a cap.', verbose_name='vacation days left')),
                ('vacation_started_at', models.DateTimeField(blank=True, null=True, verbose_name='vacation started at')),
                ('vacation_until', models.DateTimeField(blank=True, null=True, verbose_name='on vacation until')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='playerstats',
            fields=[
                ('deal_points', models.BigIntegerField(default=0, help_text="The sum of the player's deal scores.", verbose_name='deal points')),
                ('deals', models.IntegerField(default=0, verbose_name='deals played')),
                ('deals_won', models.IntegerField(default=0, help_text='Deals the player went out in.', verbose_name='deals won')),
                ('games', models.IntegerField(default=0, verbose_name='games finished')),
                ('hands', models.IntegerField(default=0, help_text='Deals won by laying down every card in one turn.', verbose_name='deals won in one go')),
                ('left_early', models.IntegerField(default=0, verbose_name='games left early')),
                ('playing', models.IntegerField(default=0, verbose_name='games being played')),
                ('rules', models.CharField(max_length=32, verbose_name='rules')),
                ('user', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='player')),
                ('wins', models.IntegerField(default=0, verbose_name='games won')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='premove',
            fields=[
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game', verbose_name='game')),
                ('seat', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='premove', to='games.seat', verbose_name='seat')),
                ('unless', models.JSONField(blank=True, default=list, help_text='Then the turn waits for the player.', verbose_name='unless the top of the discard pile is')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='pushsubscription',
            fields=[
                ('auth', models.CharField(max_length=64, verbose_name='authentication secret')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('endpoint', models.URLField(max_length=1024, unique=True, verbose_name='push service address')),
                ('p256dh', models.CharField(max_length=128, verbose_name="browser's public key")),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='push_subscriptions', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='seat',
            fields=[
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='games.game', verbose_name='game')),
                ('game_ended_at', models.DateTimeField(blank=True, null=True, verbose_name='game ended at')),
                ('joined_at', models.DateTimeField(auto_now_add=True, verbose_name='joined at')),
                ('position', models.PositiveSmallIntegerField(verbose_name='seat number')),
                ('status', models.CharField(choices=[('active', 'Playing'), ('left', 'Away'), ('out', 'Out of the game')], default='active', max_length=8, verbose_name='status')),
                ('strikes', models.PositiveSmallIntegerField(default=0, help_text='Turns in a row the server played for the player when their time ran out.', verbose_name='timeouts in a row')),
                ('time_bank_used_ms', models.PositiveIntegerField(default=0, verbose_name='time bank used, in milliseconds')),
                ('total', models.IntegerField(default=0, verbose_name='total')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='sentreminder',
            fields=[
                ('deadline_at', models.DateTimeField(verbose_name='deadline')),
                ('lead_hours', models.PositiveSmallIntegerField(verbose_name='hours before the deadline')),
                ('seat', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.seat', verbose_name='seat')),
                ('sent_at', models.DateTimeField(auto_now_add=True, verbose_name='sent at')),
            ],
        ),
    ]
