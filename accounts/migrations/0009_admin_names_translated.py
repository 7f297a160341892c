# The accounts' names for the admin's readers, in their language: every model's and
# field's name and help text. No column changes: Django keeps these in its state only.
# Each model's fields get their new words in one Relabel (remi_site/relabel_operation.py):
# an AlterField per field re-rendered the models 289 times and doubled a new database's migrate.
import accounts.scopes
import django.core.validators
import django.db.models.deletion
import django.utils.timezone
import remi_site.relabel_operation
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0008_modlog_show_chat'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('games', '0024_bot_decision'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='abandonment',
            options={'ordering': ['-created_at', '-id'], 'verbose_name': 'abandoned game', 'verbose_name_plural': 'abandoned games'},
        ),
        migrations.AlterModelOptions(
            name='apitoken',
            options={'ordering': ['-created', '-id'], 'verbose_name': 'API token', 'verbose_name_plural': 'API tokens'},
        ),
        migrations.AlterModelOptions(
            name='appeal',
            options={'ordering': ['created_at', 'id'], 'verbose_name': 'appeal', 'verbose_name_plural': 'appeals'},
        ),
        migrations.AlterModelOptions(
            name='fairplaymark',
            options={'ordering': ['-created_at', '-id'], 'verbose_name': 'fair-play mark', 'verbose_name_plural': 'fair-play marks'},
        ),
        migrations.AlterModelOptions(
            name='modaction',
            options={'default_permissions': ('view',), 'ordering': ['-created_at', '-id'], 'permissions': [('ban_account', 'Can ban and unban accounts'), ('mute_account', 'Can mute and unmute accounts in chat'), ('lift_playban', 'Can lift a playban'), ('mark_account', 'Can mark accounts for fair play and revert their results'), ('resolve_report', 'Can resolve and dismiss reports')], 'verbose_name': 'modlog entry', 'verbose_name_plural': 'modlog entries'},
        ),
        migrations.AlterModelOptions(
            name='profile',
            options={'verbose_name': 'profile', 'verbose_name_plural': 'profiles'},
        ),
        migrations.AlterModelOptions(
            name='rating',
            options={'verbose_name': 'rating', 'verbose_name_plural': 'ratings'},
        ),
        migrations.AlterModelOptions(
            name='ratingchange',
            options={'ordering': ['-created_at', '-id'], 'verbose_name': 'rating change', 'verbose_name_plural': 'rating changes'},
        ),
        migrations.AlterModelOptions(
            name='report',
            options={'ordering': ['-created_at', '-id'], 'verbose_name': 'report', 'verbose_name_plural': 'reports'},
        ),
        migrations.AlterModelOptions(
            name='sanction',
            options={'ordering': ['-created_at', '-id'], 'verbose_name': 'sanction', 'verbose_name_plural': 'sanctions'},
        ),
        remi_site.relabel_operation.Relabel(
            model_name='abandonment',
            fields=[
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game', verbose_name='game')),
                ('reason', models.CharField(choices=[('timeout', 'Timeouts'), ('absent', 'Absence')], max_length=16, verbose_name='reason')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='abandonments', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='apitoken',
            fields=[
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('digest', models.CharField(max_length=128, unique=True, verbose_name='digest')),
                ('expiry', models.DateTimeField(blank=True, null=True, verbose_name='expires')),
                ('last_used', models.DateTimeField(blank=True, null=True, verbose_name='last used')),
                ('name', models.CharField(max_length=64, verbose_name='name')),
                ('scopes', models.JSONField(default=accounts.scopes.all_scopes, verbose_name='scopes')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='auth_token_set', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='appeal',
            fields=[
                ('answer', models.TextField(blank=True, max_length=1000, verbose_name='answer')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='answered at')),
                ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='answered by')),
                ('sanction', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='appeal', to='accounts.sanction', verbose_name='sanction')),
                ('status', models.CharField(choices=[('open', 'Waiting for a moderator'), ('granted', 'Granted'), ('denied', 'Denied')], default='open', max_length=8, verbose_name='status')),
                ('text', models.TextField(max_length=2000, verbose_name='text')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='fairplaymark',
            fields=[
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                ('kind', models.CharField(choices=[('cheating', 'Cheating'), ('boosting', 'Boosting')], max_length=10, verbose_name='kind')),
                ('reason', models.TextField(max_length=1000, verbose_name='reason')),
                ('remove_reason', models.TextField(blank=True, max_length=1000, verbose_name='reason for removal')),
                ('removed_at', models.DateTimeField(blank=True, null=True, verbose_name='removed at')),
                ('removed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='removed by')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='fair_play_marks', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='modaction',
            fields=[
                ('action', models.CharField(choices=[('abort', 'Abort a game'), ('adjudicate', 'Adjudicate a game'), ('ban', 'Ban'), ('unban', 'Unban'), ('mute', 'Mute'), ('unmute', 'Unmute'), ('playban', 'Playban (automatic)'), ('lift_playban', 'Lift a playban'), ('hide_chat', 'Hide a chat line'), ('show_chat', 'Show a hidden chat line again'), ('mark', 'Fair-play mark'), ('unmark', 'Remove a fair-play mark'), ('revert', 'Revert rated results'), ('warn', 'Warning'), ('grant_appeal', 'Grant an appeal'), ('deny_appeal', 'Deny an appeal'), ('note', 'Note'), ('resolve_report', 'Close a report: action taken'), ('dismiss_report', 'Close a report: no action'), ('look_hidden', 'Look at hidden cards')], max_length=16, verbose_name='action')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('details', models.JSONField(blank=True, default=dict, verbose_name='details')),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.game', verbose_name='game')),
                ('moderator', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='mod_actions_taken', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                ('reason', models.TextField(max_length=1000, verbose_name='reason')),
                ('report', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='mod_actions', to='accounts.report', verbose_name='report')),
                ('target', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='mod_actions_received', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='profile',
            fields=[
                ('avatar', models.CharField(blank=True, help_text='An emoji, or an https:// image URL.', max_length=200, verbose_name='avatar')),
                ('bio', models.TextField(blank=True, max_length=500, verbose_name='about the player')),
                ('bot_level', models.PositiveSmallIntegerField(blank=True, help_text='Strength of a built-in bot, 1 (weakest) to 4; empty for people and external bots.', null=True, verbose_name='bot level')),
                ('card_colours', models.CharField(choices=[('two', 'Two colours: ♠ ♣ black, ♥ ♦ red'), ('four', 'Four colours: ♠ black, ♥ red, ♦ blue, ♣ green')], default='two', help_text='The colours of the suits on the cards.', max_length=4, verbose_name='card colours')),
                ('chat_enabled', models.BooleanField(default=True, help_text='Show the table chat.', verbose_name='table chat')),
                ('country', models.CharField(blank=True, help_text='ISO 3166-1 alpha-2 country code, e.g. RS; empty if not given.', max_length=2, validators=[django.core.validators.RegexValidator('^[A-Z]{2}$', 'Use an ISO 3166-1 alpha-2 code, e.g. RS.')], verbose_name='country')),
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('deleted_at', models.DateTimeField(blank=True, null=True, verbose_name='deleted at')),
                ('display_name', models.CharField(max_length=40, verbose_name='display name')),
                ('email_challenges', models.BooleanField(default=True, help_text='Email me when someone challenges me.', verbose_name='challenge emails')),
                ('email_report_outcomes', models.BooleanField(default=False, help_text='Email me what came of my reports.', verbose_name='report outcome emails')),
                ('is_bot', models.BooleanField(default=False, verbose_name='bot')),
                ('language', models.CharField(choices=[('en', 'English'), ('mk', 'Македонски'), ('sr-latn', 'Srpski (latinica)'), ('sr-cyrl', 'Српски (ћирилица)'), ('pl', 'Polski')], default='en', max_length=8, verbose_name='language')),
                ('pending_email', models.EmailField(blank=True, help_text='An address waiting for its verification link.', max_length=254, verbose_name='unconfirmed email address')),
                ('show_online', models.BooleanField(default=True, help_text='Let others see when I am online.', verbose_name='shown online')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='profile', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='rating',
            fields=[
                ('games', models.PositiveIntegerField(default=0, verbose_name='rated games')),
                ('mu', models.FloatField(verbose_name='skill (μ)')),
                ('rating', models.IntegerField(help_text='The rating players see.', verbose_name='rating')),
                ('rules', models.CharField(help_text="The game's rules: a rating is kept for each.", max_length=32, verbose_name='rules')),
                ('sigma', models.FloatField(verbose_name='uncertainty (σ)')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='ratingchange',
            fields=[
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='games.game', verbose_name='game')),
                ('mu_after', models.FloatField(verbose_name='skill after (μ)')),
                ('mu_before', models.FloatField(verbose_name='skill before (μ)')),
                ('position', models.PositiveSmallIntegerField(help_text="The player's seat.", verbose_name='seat')),
                ('rank', models.PositiveSmallIntegerField(help_text='The final standing: 1 won; tied players share a place.', verbose_name='place')),
                ('rating_after', models.IntegerField(verbose_name='rating after')),
                ('rating_before', models.IntegerField(verbose_name='rating before')),
                ('reverted', models.BooleanField(default=False, verbose_name='taken back')),
                ('rules', models.CharField(max_length=32, verbose_name='rules')),
                ('sigma_after', models.FloatField(verbose_name='uncertainty after (σ)')),
                ('sigma_before', models.FloatField(verbose_name='uncertainty before (σ)')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='report',
            fields=[
                ('chat_message', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reports', to='games.chatmessage', verbose_name='chat line')),
                ('claimed_at', models.DateTimeField(blank=True, null=True, verbose_name='taken at')),
                ('claimed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='taken by')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reports', to='games.game', verbose_name='game')),
                ('reason', models.CharField(choices=[('cheating', 'Cheating or collusion'), ('abuse', 'Abusive chat'), ('stalling', 'Stalling'), ('name', 'Offensive name'), ('other', 'Other')], max_length=16, verbose_name='reason')),
                ('reported', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reports_received', to=settings.AUTH_USER_MODEL, verbose_name='reported account')),
                ('reporter', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reports_made', to=settings.AUTH_USER_MODEL, verbose_name='reporter')),
                ('resolution', models.TextField(blank=True, help_text="The moderator's reason.", max_length=1000, verbose_name='resolution')),
                ('resolved_at', models.DateTimeField(blank=True, null=True, verbose_name='closed at')),
                ('resolved_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='closed by')),
                ('status', models.CharField(choices=[('open', 'Open'), ('resolved', 'Action taken'), ('dismissed', 'No action')], default='open', max_length=10, verbose_name='status')),
                ('text', models.TextField(blank=True, max_length=2000, verbose_name='text')),
            ],
        ),
        remi_site.relabel_operation.Relabel(
            model_name='sanction',
            fields=[
                ('acknowledged_at', models.DateTimeField(blank=True, null=True, verbose_name='acknowledged at')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                ('ends_at', models.DateTimeField(blank=True, help_text='Empty: permanent.', null=True, verbose_name='ends at')),
                ('kind', models.CharField(choices=[('ban', 'Ban'), ('mute', 'Chat mute'), ('playban', 'Playban (rated games)'), ('warning', 'Warning')], max_length=8, verbose_name='kind')),
                ('lift_reason', models.TextField(blank=True, max_length=1000, verbose_name='reason for lifting')),
                ('lifted_at', models.DateTimeField(blank=True, null=True, verbose_name='lifted at')),
                ('lifted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='lifted by')),
                ('preset', models.CharField(blank=True, choices=[('abuse', 'Abusive or insulting chat'), ('spam', 'Spamming the chat'), ('stalling', 'Stalling games'), ('name', 'Offensive name or profile'), ('cheating', 'Cheating or collusion'), ('boosting', 'Boosting ratings'), ('other', 'Another breach of the rules')], max_length=10, verbose_name='preset reason')),
                ('reason', models.TextField(max_length=1000, verbose_name='reason')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='sanctions', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
        ),
    ]
