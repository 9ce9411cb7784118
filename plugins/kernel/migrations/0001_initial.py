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
            name='Game',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('group_id', fields.CharField(db_index=True, max_length=32)),
                ('self_id', fields.CharField(default='', max_length=32)),
                ('kind', fields.CharField(max_length=32)),
                ('status', fields.CharField(default='signup', max_length=16)),
                ('seed', fields.CharField(max_length=64)),
                ('settings', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('state', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('last_seq', fields.IntField(default=0)),
                ('phase_key', fields.CharField(null=True, max_length=64)),
                ('phase_label', fields.CharField(null=True, max_length=128)),
                ('created_by', fields.CharField(max_length=32)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('started_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('ended_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('end_reason', fields.TextField(null=True, unique=False)),
            ],
            options={'table': 'game', 'app': 'kernel', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Audit',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', null=True, db_constraint=True, to_field='id', related_name='audit', on_delete=OnDelete.CASCADE)),
                ('seq', fields.IntField(null=True)),
                ('actor', fields.CharField(default='', max_length=32)),
                ('action', fields.CharField(max_length=64)),
                ('detail', fields.TextField(default='', unique=False)),
                ('at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'audit', 'app': 'kernel', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Card',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='cards', on_delete=OnDelete.CASCADE)),
                ('seat', fields.IntField()),
                ('user_id', fields.CharField(max_length=32)),
                ('color', fields.CharField(max_length=8)),
                ('reason', fields.TextField(unique=False)),
                ('given_by', fields.CharField(max_length=32)),
                ('at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'card', 'app': 'kernel', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='CommandLog',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='commands', on_delete=OnDelete.CASCADE)),
                ('seq', fields.IntField()),
                ('user_id', fields.CharField(default='', max_length=32)),
                ('name', fields.CharField(max_length=64)),
                ('args', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('received_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('source', fields.CharField(max_length=16)),
                ('dedup_key', fields.CharField(null=True, unique=True, max_length=128)),
            ],
            options={'table': 'command_log', 'app': 'kernel', 'unique_together': (('game', 'seq'),), 'pk_attr': 'id', 'table_description': 'Every accepted command, timer firing and kernel action, in game order.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Focus',
            fields=[
                ('user_id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=32)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='focused_by', on_delete=OnDelete.CASCADE)),
            ],
            options={'table': 'focus', 'app': 'kernel', 'pk_attr': 'user_id', 'table_description': "Which game a user's private commands go to when they are in several."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Host',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='hosts', on_delete=OnDelete.CASCADE)),
                ('user_id', fields.CharField(max_length=32)),
                ('added_by', fields.CharField(max_length=32)),
                ('added_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'host', 'app': 'kernel', 'unique_together': (('game', 'user_id'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Outbox',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', null=True, db_constraint=True, to_field='id', related_name='outbox', on_delete=OnDelete.CASCADE)),
                ('self_id', fields.CharField(default='', max_length=32)),
                ('target_type', fields.CharField(max_length=8)),
                ('target_id', fields.CharField(max_length=32)),
                ('text', fields.TextField(unique=False)),
                ('priority', fields.IntField(default=1)),
                ('status', fields.CharField(default='pending', db_index=True, max_length=8)),
                ('attempts', fields.IntField(default=0)),
                ('next_try_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('sent_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_error', fields.TextField(null=True, unique=False)),
            ],
            options={'table': 'outbox', 'app': 'kernel', 'pk_attr': 'id', 'table_description': 'The outbound queue. Rows are written in the same transaction as the'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Player',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='players', on_delete=OnDelete.CASCADE)),
                ('user_id', fields.CharField(max_length=32)),
                ('seat', fields.IntField()),
                ('alias', fields.CharField(max_length=32)),
                ('alive', fields.BooleanField(default=True)),
                ('out_reason', fields.TextField(null=True, unique=False)),
                ('joined_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'player', 'app': 'kernel', 'unique_together': (('game', 'user_id'), ('game', 'seat'), ('game', 'alias')), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Timer',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='timers', on_delete=OnDelete.CASCADE)),
                ('key', fields.CharField(max_length=64)),
                ('ends_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('status', fields.CharField(default='armed', max_length=16)),
                ('remaining', fields.FloatField(null=True)),
                ('fired_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'timer', 'app': 'kernel', 'pk_attr': 'id', 'table_description': 'A deadline. Armed rows are re-armed in the scheduler at start-up.'},
            bases=['Model'],
        ),
    ]
