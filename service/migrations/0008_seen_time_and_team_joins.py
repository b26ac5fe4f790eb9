"""OneBot's time of each message handled, kept with its key: a OneBot set up again numbers messages
from the start, and a new message under an old id saying the same text is told from the old one by
its time (a key stored before has no time and stays a repeat whatever time its event comes with).
And for each team, who has joined its group and the roster last posted there: the roster is posted
once the members are in, not into an empty group. Nullable columns only (see 0003 on altering tables)."""
from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields


class Migration(migrations.Migration):
    dependencies = [('models', '0007_outbox_message_id')]

    initial = False

    operations = [
        ops.AddField(
            model_name='SeenMessage',
            name='time',
            field=fields.BigIntField(null=True),
        ),
        ops.AddField(
            model_name='TeamRow',
            name='joined',
            field=fields.JSONField(null=True),
        ),
        ops.AddField(
            model_name='TeamRow',
            name='posted',
            field=fields.JSONField(null=True),
        ),
    ]
