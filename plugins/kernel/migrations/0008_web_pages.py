from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('kernel', '0007_card_private_reason')]

    initial = False

    operations = [
        ops.CreateModel(
            name='WebAccess',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('kernel.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='web_access', on_delete=OnDelete.CASCADE)),
                ('user_id', fields.CharField(max_length=32)),
                ('link', fields.CharField(unique=True, max_length=64)),
                ('pw_hash', fields.CharField(max_length=255)),
                ('failures', fields.IntField(default=0)),
                ('blocked_until', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'web_access', 'app': 'kernel', 'unique_together': (('game', 'user_id'),), 'pk_attr': 'id', 'table_description': "A player's (or host's) personal web page of one game: the link's secret"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='WebSession',
            fields=[
                ('key', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('access', fields.ForeignKeyField('kernel.WebAccess', source_field='access_id', db_constraint=True, to_field='id', related_name='sessions', on_delete=OnDelete.CASCADE)),
                ('csrf', fields.CharField(max_length=64)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'web_session', 'app': 'kernel', 'pk_attr': 'key', 'table_description': "A logged-in browser of one access (player and game). The key is a hash of the cookie's token."},
            bases=['Model'],
        ),
    ]
