from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0004_rules_kept')]

    initial = False

    operations = [
        ops.CreateModel(
            name='DeskTokenRow',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRow', source_field='game_id', db_constraint=True, to_field='id', related_name='desk_tokens', on_delete=OnDelete.CASCADE)),
                ('qq', fields.CharField(max_length=20)),
                ('digest', fields.CharField(unique=True, max_length=64)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'desk_token', 'app': 'models', 'indexes': [Index(fields=['game_id', 'qq'])], 'pk_attr': 'id', 'table_description': "A link to a game's desk (its director's web page): only the sha256 of the link's token is"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='RevealRow',
            fields=[
                ('game', fields.OneToOneField('models.GameRow', source_field='game_id', primary_key=True, db_index=True, db_constraint=True, to_field='id', related_name='reveal', on_delete=OnDelete.CASCADE)),
                ('qq', fields.CharField(max_length=20)),
                ('at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'reveal', 'app': 'models', 'pk_attr': 'game_id', 'table_description': 'A finished game whose 揭秘 page its director made public (`揭秘 公开`).'},
            bases=['Model'],
        ),
        ops.AlterModelOptions(
            name='RevealRow',
            options={'table': 'reveal', 'app': 'models', 'pk_attr': 'game_id', 'table_description': 'A finished game whose 揭秘 page its director made public (`揭秘 公开`).'},
        ),
    ]
