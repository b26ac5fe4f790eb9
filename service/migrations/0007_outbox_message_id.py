"""The id OneBot gave each message sent: a message in doubt is looked for in its chat's history after
the one delivered before it, not by its text. A nullable column only (see 0003 on altering tables)."""
from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields


class Migration(migrations.Migration):
    dependencies = [('models', '0006_deal_salt_and_group_history')]

    initial = False

    operations = [
        ops.AddField(
            model_name='OutboxRow',
            name='message_id',
            field=fields.CharField(null=True, max_length=40),
        ),
    ]
