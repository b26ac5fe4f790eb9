"""A game keeps the rules it was started with (engine/snapshot.py): a nullable column, filled for
every game started before it with the rules of this version, which are the rules they were started
with (this version changes none). A game still on its roster gets its rules at 开始.

Only a nullable column is added: on SQLite, tortoise alters a column by rebuilding its table, and
rebuilding `game` would cascade-delete every game's seats, commands and messages.
"""
import json

from tortoise import fields, migrations
from tortoise.migrations import operations as ops

from engine.snapshot import snapshot
from rulesets import get as get_ruleset


async def rules_of_started_games(apps, schema_editor) -> None:
    client = schema_editor.client
    update = 'UPDATE "game" SET "rules" = {} WHERE "id" = {}'
    update = update.format("$1", "$2") if client.capabilities.dialect == "postgres" else update.format("?", "?")
    for row in await client.execute_query_dict('SELECT "id", "ruleset" FROM "game" WHERE "status" <> \'roster\''):
        rules = get_ruleset(row["ruleset"])
        if rules is None:  # a ruleset gone already: the game stays without, and says so when loaded
            continue
        # the options a game starts with; what a director set later is in its log
        kept = snapshot(rules, rules.configure({}))
        await client.execute_query(update, [json.dumps(kept, ensure_ascii=False), row["id"]])


class Migration(migrations.Migration):
    dependencies = [('models', '0003_sending_and_indexes')]

    initial = False

    operations = [
        ops.AddField(
            model_name='GameRow',
            name='rules',
            field=fields.JSONField(null=True),
        ),
        ops.RunPython(rules_of_started_games, ops.RunPython.noop),
    ]
