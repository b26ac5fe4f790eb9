"""Which QQ account serves each game, sends each stored action and administers each pool group (the
bot may have several OneBot connections). Nullable columns only (see 0006): an empty one, as every
row stored before, means whichever account is connected, as the bot always did."""
from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields


class Migration(migrations.Migration):
    dependencies = [('models', '0008_seen_time_and_team_joins')]

    initial = False

    operations = [
        ops.AddField(
            model_name='GameRow',
            name='account',
            field=fields.CharField(null=True, max_length=20),
        ),
        ops.AddField(
            model_name='OutboxRow',
            name='account',
            field=fields.CharField(null=True, max_length=20),
        ),
        ops.AddField(
            model_name='PoolGroupRow',
            name='account',
            field=fields.CharField(null=True, max_length=20),
        ),
    ]
