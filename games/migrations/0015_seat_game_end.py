from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

ENDED = ("finished", "aborted")


def seats_game_ended(apps, schema_editor):
    """Every seat of an ended game takes the game's end time (its last change, for an
    old row without one), in one statement that SQLite and PostgreSQL both run."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    ended_at = Game.objects.filter(pk=OuterRef("game_id")).values(
        at=Coalesce("finished_at", "updated_at")
    )[:1]
    Seat.objects.filter(game__status__in=ENDED).update(game_ended_at=Subquery(ended_at))


class Migration(migrations.Migration):
    dependencies = [("games", "0014_deal_pause")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="game_ended_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(seats_game_ended, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("game_ended_at__isnull", True)),
                fields=["user", "game"],
                name="seat_user_running",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("game_ended_at__isnull", False)),
                fields=["user", "-game_ended_at", "-game"],
                name="seat_user_ended",
            ),
        ),
    ]
