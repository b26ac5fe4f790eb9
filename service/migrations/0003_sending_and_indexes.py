"""Chats sent side by side and a cost that does not grow with history: an index for every lookup a
message needs, the rows still to send through a partial index, a message
given up after repeated refusals, and each game's directors in a table of their own.

Only indexes and a nullable column are added: on SQLite, tortoise alters a column by rebuilding its
table, and rebuilding `game` would cascade-delete every game's seats, commands and messages.
"""
import json

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index


async def directors_of_existing_games(apps, schema_editor) -> None:
    client = schema_editor.client
    insert = 'INSERT INTO "game_director" ("game_id", "qq") VALUES ({}, {})'
    insert = insert.format("$1", "$2") if client.capabilities.dialect == "postgres" else insert.format("?", "?")
    for row in await client.execute_query_dict('SELECT "id", "directors" FROM "game"'):
        directors = row["directors"]
        for qq in dict.fromkeys(json.loads(directors) if isinstance(directors, str) else directors):
            await client.execute_query(insert, [row["id"], str(qq)])

class Migration(migrations.Migration):
    dependencies = [('models', '0002_deadline_waits_for')]

    initial = False

    operations = [
        ops.CreateModel(
            name='GameDirectorRow',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRow', source_field='game_id', db_constraint=True, to_field='id', related_name='director_rows', on_delete=OnDelete.CASCADE)),
                ('qq', fields.CharField(max_length=20)),
            ],
            options={'table': 'game_director', 'app': 'models', 'unique_together': (('game', 'qq'),), 'indexes': [Index(fields=['qq'])], 'pk_attr': 'id', 'table_description': 'A director of a game (the creator or a co-director), kept in step with `GameRow.directors`'},
            bases=['Model'],
        ),
        ops.AddIndex(
            model_name='DeadlineRow',
            index=Index(fields=['game_id']),
        ),
        ops.AddIndex(
            model_name='DeadlineRow',
            index=Index(fields=['waits_for_id']),
        ),
        ops.AddIndex(
            model_name='DeadlineRow',
            index=Index(fields=['done']),
        ),
        ops.AddIndex(
            model_name='GameRow',
            index=Index(fields=['status']),
        ),
        ops.AddField(
            model_name='OutboxRow',
            name='given_up_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddIndex(
            model_name='PoolGroupRow',
            index=Index(fields=['game_id']),
        ),
        ops.AddIndex(
            model_name='SeatRow',
            index=Index(fields=['qq']),
        ),
        ops.AlterModelOptions(
            name='SeenMessage',
            options={'table': 'seen_message', 'app': 'models', 'indexes': [Index(fields=['at'])], 'pk_attr': 'key', 'table_description': 'A QQ event already handled (its chat and id): the same event seen again is ignored. Stored in'},
        ),
        ops.AddIndex(
            model_name='SeenMessage',
            index=Index(fields=['at']),
        ),
        ops.AddIndex(
            model_name='TeamRow',
            index=Index(fields=['group_id']),
        ),
        ops.RunSQL(
            'CREATE INDEX "outbox_waiting" ON "outbox" ("id") WHERE "sent_at" IS NULL AND "given_up_at" IS NULL',
            reverse_sql='DROP INDEX "outbox_waiting"',
        ),
        ops.RunPython(directors_of_existing_games, ops.RunPython.noop),
    ]
