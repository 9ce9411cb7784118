"""Hardening: delivered-message keys, leases, contacts, timer retries, queue owner and timeouts."""
from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('kernel', '0005_player_profile')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Contact',
            fields=[
                ('user_id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=32)),
                ('self_id', fields.CharField(max_length=32)),
                ('at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'contact', 'app': 'kernel', 'pk_attr': 'user_id', 'table_description': 'The bot account a user last wrote to privately: private messages go out'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Delivery',
            fields=[
                ('key', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=128)),
                ('at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'delivery', 'app': 'kernel', 'pk_attr': 'key', 'table_description': 'A message already acted on (its duplicate-detection key), written in the'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Lease',
            fields=[
                ('key', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('owner', fields.CharField(max_length=64)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'lease', 'app': 'kernel', 'pk_attr': 'key', 'table_description': 'Who serves what: ``game:<id>`` (one process per game) and ``node:<process>``'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Game',
            name='live_group',
            field=fields.CharField(null=True, unique=True, max_length=32),
        ),
        ops.AddField(
            model_name='Outbox',
            name='owner',
            field=fields.CharField(default='', db_index=True, max_length=64),
        ),
        ops.AddField(
            model_name='Outbox',
            name='timeouts',
            field=fields.IntField(default=0),
        ),
        ops.AddField(
            model_name='Timer',
            name='attempts',
            field=fields.IntField(default=0),
        ),
        ops.AddField(
            model_name='Timer',
            name='last_error',
            field=fields.TextField(null=True, unique=False),
        ),
        # games live before this upgrade hold their group too (newest wins if a group had two)
        ops.RunSQL(
            "UPDATE game SET live_group = group_id WHERE status IN ('signup', 'running', 'paused') "
            "AND id IN (SELECT MAX(id) FROM game WHERE status IN ('signup', 'running', 'paused') GROUP BY group_id)",
            reverse_sql="UPDATE game SET live_group = NULL",
        ),
    ]
