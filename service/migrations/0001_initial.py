from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='GameRow',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('ruleset', fields.CharField(max_length=16)),
                ('title', fields.CharField(default='', max_length=100)),
                ('seed', fields.BigIntField()),
                ('status', fields.CharField(default='roster', max_length=16)),
                ('directors', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('planned_close', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('closed_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'game', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='CommandRow',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRow', source_field='game_id', db_constraint=True, to_field='id', related_name='commands', on_delete=OnDelete.CASCADE)),
                ('seq', fields.IntField()),
                ('payload', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('source', fields.CharField(max_length=64)),
                ('at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'command', 'app': 'models', 'unique_together': (('game', 'seq'),), 'pk_attr': 'id', 'table_description': 'One accepted command of the game log, stored before anyone is answered.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DeadlineRow',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRow', source_field='game_id', db_constraint=True, to_field='id', related_name='deadlines', on_delete=OnDelete.CASCADE)),
                ('key', fields.CharField(max_length=128)),
                ('what', fields.CharField(max_length=32)),
                ('who', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('anchor', fields.CharField(max_length=8)),
                ('minutes', fields.IntField()),
                ('due_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('reminded', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('done', fields.BooleanField(default=False)),
            ],
            options={'table': 'deadline', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A time limit of a game, as an absolute time once its anchor is known.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='OutboxRow',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRow', source_field='game_id', null=True, db_constraint=True, to_field='id', related_name='outbox', on_delete=OnDelete.CASCADE)),
                ('action', fields.CharField(max_length=32)),
                ('params', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('sent_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('attempts', fields.IntField(default=0)),
                ('last_error', fields.TextField(default='', unique=False)),
            ],
            options={'table': 'outbox', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A OneBot action to perform (a message, a group rename, a kick), kept until OneBot accepts it.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PoolGroupRow',
            fields=[
                ('group_id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=20)),
                ('original_name', fields.CharField(default='', max_length=100)),
                ('game', fields.ForeignKeyField('models.GameRow', source_field='game_id', null=True, db_constraint=True, to_field='id', related_name='groups', on_delete=OnDelete.CASCADE)),
                ('team', fields.CharField(null=True, max_length=32)),
            ],
            options={'table': 'pool_group', 'app': 'models', 'pk_attr': 'group_id', 'table_description': 'A QQ group the bot administers, lent to one team of one game at a time.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='SeatRow',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRow', source_field='game_id', db_constraint=True, to_field='id', related_name='seats', on_delete=OnDelete.CASCADE)),
                ('seat', fields.IntField()),
                ('name', fields.CharField(max_length=32)),
                ('qq', fields.CharField(max_length=20)),
                ('role', fields.CharField(null=True, max_length=16)),
                ('former_qq', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'seat', 'app': 'models', 'unique_together': (('game', 'seat'), ('game', 'name')), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='SeenMessage',
            fields=[
                ('key', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'seen_message', 'app': 'models', 'pk_attr': 'key', 'table_description': 'A QQ message already handled: the same message id seen again is ignored.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='TeamRow',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRow', source_field='game_id', db_constraint=True, to_field='id', related_name='teams', on_delete=OnDelete.CASCADE)),
                ('team', fields.CharField(max_length=32)),
                ('members', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('group_id', fields.CharField(null=True, max_length=20)),
            ],
            options={'table': 'team', 'app': 'models', 'unique_together': (('game', 'team'),), 'pk_attr': 'id', 'table_description': 'A team of a game (狼群...), its members, and its group (none: the bot relays privately).'},
            bases=['Model'],
        ),
    ]
