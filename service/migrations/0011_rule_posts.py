"""The rule posts directors send the bot (service/rule_posts.py): a new table only."""
from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields


class Migration(migrations.Migration):
    dependencies = [('models', '0010_account_leases')]

    initial = False

    operations = [
        ops.CreateModel(
            name='RulePostRow',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=16)),
                ('owner', fields.CharField(max_length=20)),
                ('text', fields.TextField(unique=False)),
                ('added_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'rule_post', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A rule post a director sent the bot (service/rule_posts.py): its file\'s text as he sent it, played under its id'},
            bases=['Model'],
        ),
    ]
