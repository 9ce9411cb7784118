from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('kernel', '0002_outbox_at_all')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Chat',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='chats', on_delete=OnDelete.CASCADE)),
                ('group_id', fields.CharField(db_index=True, max_length=32)),
                ('label', fields.CharField(max_length=32)),
                ('linked_by', fields.CharField(max_length=32)),
                ('linked_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'chat', 'app': 'kernel', 'unique_together': (('game', 'label'),), 'pk_attr': 'id', 'table_description': "An extra QQ group linked to a game (a league group's chat, a prison"},
            bases=['Model'],
        ),
    ]
