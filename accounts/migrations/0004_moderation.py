# Moderation: reports, sanctions (bans, mutes, playbans) and the abandonments a playban
# counts, fair-play marks (and rated results taken back), the modlog; the modlog's
# append-only trigger on each database; the "moderator" group.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

# ------------------------------------------------------------------ append-only modlog
# The database refuses to change or delete a row of the modlog, whoever asks. (On
# SQLite, a later migration that rebuilds the table drops its triggers: it must create
# them again.)

POSTGRESQL_APPEND_ONLY = [
    """
    CREATE FUNCTION accounts_modaction_refuse_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the moderation log is append-only: % refused', TG_OP
            USING ERRCODE = 'restrict_violation';
    END;
    $$
    """,
    """
    CREATE TRIGGER accounts_modaction_append_only
    BEFORE UPDATE OR DELETE ON accounts_modaction
    FOR EACH ROW EXECUTE FUNCTION accounts_modaction_refuse_change()
    """,
]
POSTGRESQL_APPEND_ONLY_REVERSE = [
    "DROP TRIGGER accounts_modaction_append_only ON accounts_modaction",
    "DROP FUNCTION accounts_modaction_refuse_change()",
]

SQLITE_APPEND_ONLY = [
    """
    CREATE TRIGGER accounts_modaction_no_update BEFORE UPDATE ON accounts_modaction
    BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER accounts_modaction_no_delete BEFORE DELETE ON accounts_modaction
    BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only: DELETE refused'); END
    """,
]
SQLITE_APPEND_ONLY_REVERSE = [
    "DROP TRIGGER accounts_modaction_no_update",
    "DROP TRIGGER accounts_modaction_no_delete",
]


class RunSQLFor(migrations.RunSQL):
    """``RunSQL`` on one database vendor only (``postgresql``, ``sqlite``)."""

    def __init__(self, vendor, sql, reverse_sql):
        super().__init__(sql, reverse_sql)
        self.vendor = vendor

    def deconstruct(self):
        name, args, kwargs = super().deconstruct()
        return name, args, {**kwargs, "vendor": self.vendor}

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == self.vendor:
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == self.vendor:
            super().database_backwards(app_label, schema_editor, from_state, to_state)


# ------------------------------------------------------------------ the moderator group
# A copy of accounts.moderation.roles.MODERATOR_PERMISSIONS as of this migration.

MODERATOR_GROUP = "moderator"
MODERATOR_PERMISSIONS = [
    "auth.view_user",
    "accounts.view_profile",
    "accounts.view_report",
    "accounts.view_sanction",
    "accounts.view_abandonment",
    "accounts.view_fairplaymark",
    "accounts.view_modaction",
    "accounts.view_rating",
    "accounts.view_ratingchange",
    "games.view_game",
    "games.view_seat",
    "games.view_deal",
    "games.view_move",
    "games.view_chatmessage",
    "games.view_moderationaccess",
    "games.view_hidden_cards",
    "games.change_game",
    "games.change_chatmessage",
    "accounts.ban_account",
    "accounts.mute_account",
    "accounts.lift_playban",
    "accounts.mark_account",
    "accounts.resolve_report",
]


def moderator_group_create(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are made after the migrations run (post_migrate): make them now.
    using = schema_editor.connection.alias
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0, using=using, apps=apps)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.using(using).get_or_create(name=MODERATOR_GROUP)
    permissions = []
    for name in MODERATOR_PERMISSIONS:
        app_label, codename = name.split(".")
        permissions.append(
            Permission.objects.using(using).get(
                content_type__app_label=app_label, codename=codename
            )
        )
    group.permissions.set(permissions)


def moderator_group_delete(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).filter(name=MODERATOR_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_account_settings"),
        ("games", "0012_challenges"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingchange",
            name="reverted",
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name="Report",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("reason", models.CharField(choices=[("cheating", "Cheating or collusion"), ("abuse", "Abusive chat"), ("stalling", "Stalling"), ("name", "Offensive name"), ("other", "Other")], max_length=16)),
                ("text", models.TextField(blank=True, max_length=2000)),
                ("status", models.CharField(choices=[("open", "Open"), ("resolved", "Resolved (action taken)"), ("dismissed", "Dismissed")], default="open", max_length=10)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("resolved_at", models.DateTimeField(blank=True, null=True)),
                ("resolution", models.TextField(blank=True, help_text="The moderator's reason.", max_length=1000)),
                ("chat_message", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="reports", to="games.chatmessage")),
                ("game", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="reports", to="games.game")),
                ("reported", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="reports_received", to=settings.AUTH_USER_MODEL)),
                ("reporter", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="reports_made", to=settings.AUTH_USER_MODEL)),
                ("resolved_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="ModAction",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("action", models.CharField(choices=[("abort", "Abort a game"), ("adjudicate", "Adjudicate a game"), ("ban", "Ban"), ("unban", "Unban"), ("mute", "Mute"), ("unmute", "Unmute"), ("playban", "Playban (automatic)"), ("lift_playban", "Lift a playban"), ("hide_chat", "Hide a chat line"), ("mark", "Fair-play mark"), ("unmark", "Remove a fair-play mark"), ("revert", "Revert rated results"), ("resolve_report", "Resolve a report"), ("dismiss_report", "Dismiss a report"), ("look_hidden", "Look at hidden cards")], max_length=16)),
                ("reason", models.TextField(max_length=1000)),
                ("details", models.JSONField(blank=True, default=dict)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("game", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="games.game")),
                ("moderator", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="mod_actions_taken", to=settings.AUTH_USER_MODEL)),
                ("target", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="mod_actions_received", to=settings.AUTH_USER_MODEL)),
                ("report", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="mod_actions", to="accounts.report")),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "permissions": [("ban_account", "Can ban and unban accounts"), ("mute_account", "Can mute and unmute accounts in chat"), ("lift_playban", "Can lift a playban"), ("mark_account", "Can mark accounts for fair play and revert their results"), ("resolve_report", "Can resolve and dismiss reports")],
                "default_permissions": ("view",),
            },
        ),
        migrations.CreateModel(
            name="Sanction",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=[("ban", "Ban"), ("mute", "Chat mute"), ("playban", "Playban (rated games)")], max_length=8)),
                ("reason", models.TextField(max_length=1000)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("ends_at", models.DateTimeField(blank=True, help_text="Empty: permanent.", null=True)),
                ("lifted_at", models.DateTimeField(blank=True, null=True)),
                ("lift_reason", models.TextField(blank=True, max_length=1000)),
                ("created_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL)),
                ("lifted_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL)),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="sanctions", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Abandonment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("reason", models.CharField(max_length=16)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.game")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="abandonments", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "indexes": [models.Index(fields=["user", "-created_at"], name="abandonment_user_created")],
                "constraints": [models.UniqueConstraint(fields=("user", "game"), name="abandonment_unique_game")],
            },
        ),
        migrations.CreateModel(
            name="FairPlayMark",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=[("cheating", "Cheating"), ("boosting", "Boosting")], max_length=10)),
                ("reason", models.TextField(max_length=1000)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("removed_at", models.DateTimeField(blank=True, null=True)),
                ("remove_reason", models.TextField(blank=True, max_length=1000)),
                ("created_by", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL)),
                ("removed_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL)),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="fair_play_marks", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "constraints": [models.UniqueConstraint(condition=models.Q(("removed_at__isnull", True)), fields=("user", "kind"), name="fair_play_mark_one_standing"), models.CheckConstraint(condition=models.Q(("reason", ""), _negated=True), name="fair_play_mark_reason_required")],
            },
        ),
        migrations.AddIndex(
            model_name="report",
            index=models.Index(fields=["status", "-created_at"], name="report_status_created"),
        ),
        migrations.AddIndex(
            model_name="report",
            index=models.Index(fields=["reported", "-created_at"], name="report_reported_created"),
        ),
        migrations.AddIndex(
            model_name="report",
            index=models.Index(fields=["reporter", "-created_at"], name="report_reporter_created"),
        ),
        migrations.AddConstraint(
            model_name="report",
            constraint=models.CheckConstraint(condition=models.Q(models.Q(("resolved_at__isnull", True), ("status", "open")), models.Q(models.Q(("status", "open"), _negated=True), ("resolved_at__isnull", False)), _connector="OR"), name="report_resolved_when_closed"),
        ),
        migrations.AddIndex(
            model_name="modaction",
            index=models.Index(fields=["target", "-created_at"], name="mod_action_target_created"),
        ),
        migrations.AddIndex(
            model_name="modaction",
            index=models.Index(fields=["moderator", "-created_at"], name="mod_action_moderator_created"),
        ),
        migrations.AddIndex(
            model_name="modaction",
            index=models.Index(fields=["-created_at"], name="mod_action_created"),
        ),
        migrations.AddConstraint(
            model_name="modaction",
            constraint=models.CheckConstraint(condition=models.Q(("reason", ""), _negated=True), name="mod_action_reason_required"),
        ),
        migrations.AddIndex(
            model_name="sanction",
            index=models.Index(condition=models.Q(("lifted_at__isnull", True)), fields=["user", "kind"], name="sanction_unlifted"),
        ),
        migrations.AddIndex(
            model_name="sanction",
            index=models.Index(fields=["user", "-created_at"], name="sanction_user_created"),
        ),
        migrations.AddConstraint(
            model_name="sanction",
            constraint=models.CheckConstraint(condition=models.Q(("kind", "ban"), ("ends_at__isnull", False), _connector="OR"), name="sanction_only_bans_are_permanent"),
        ),
        migrations.AddConstraint(
            model_name="sanction",
            constraint=models.CheckConstraint(condition=models.Q(("reason", ""), _negated=True), name="sanction_reason_required"),
        ),
        RunSQLFor("postgresql", POSTGRESQL_APPEND_ONLY, POSTGRESQL_APPEND_ONLY_REVERSE),
        RunSQLFor("sqlite", SQLITE_APPEND_ONLY, SQLITE_APPEND_ONLY_REVERSE),
        migrations.RunPython(moderator_group_create, moderator_group_delete),
    ]
