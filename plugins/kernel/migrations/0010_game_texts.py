from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('kernel', '0009_outbox_scrub')]

    initial = False

    operations = [
        ops.CreateModel(
            name='GameText',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='texts', on_delete=OnDelete.CASCADE)),
                ('ref', fields.IntField()),
                ('text', fields.TextField(unique=False)),
            ],
            options={'table': 'game_text', 'app': 'kernel', 'unique_together': (('game', 'ref'),), 'pk_attr': 'id', 'table_description': "A text of a game's state (a post, a draft's part, a transcript line, a note):"},
            bases=['Model'],
        ),
    ]
