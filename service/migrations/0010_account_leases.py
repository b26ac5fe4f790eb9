"""Which bot process holds each QQ account (several processes on one PostgreSQL): a new table only."""
from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields


class Migration(migrations.Migration):
    dependencies = [('models', '0009_accounts')]

    initial = False

    operations = [
        ops.CreateModel(
            name='AccountLeaseRow',
            fields=[
                ('account', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=20)),
                ('holder', fields.CharField(max_length=64)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'account_lease', 'app': 'models', 'pk_attr': 'account', 'table_description': "Which bot process drives a QQ account's games and sends its messages, and until when: with"},
            bases=['Model'],
        ),
    ]
