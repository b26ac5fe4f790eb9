"""The salt hashed with each game's deal (engine/commitment.py), and what a pool group shows a new
member of its history. Nullable columns only: on SQLite, tortoise alters a column by rebuilding its
table, and rebuilding `game` would cascade-delete every game's seats, commands and messages."""
from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields


class Migration(migrations.Migration):
    dependencies = [('models', '0005_desk_tokens')]

    initial = False

    operations = [
        ops.AddField(
            model_name='GameRow',
            name='salt',
            field=fields.CharField(null=True, max_length=32),
        ),
        ops.AddField(
            model_name='PoolGroupRow',
            name='history_shown',
            field=fields.BooleanField(null=True),
        ),
        ops.AddField(
            model_name='PoolGroupRow',
            name='lent_before',
            field=fields.BooleanField(null=True),
        ),
    ]
