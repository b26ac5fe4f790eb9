from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0001_initial')]

    initial = False

    operations = [
        ops.AddField(
            model_name='DeadlineRow',
            name='waits_for',
            field=fields.ForeignKeyField('models.OutboxRow', source_field='waits_for_id', null=True, db_constraint=True, to_field='id', related_name='starts', on_delete=OnDelete.SET_NULL),
        ),
    ]
