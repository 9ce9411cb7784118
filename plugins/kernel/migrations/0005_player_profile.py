from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('kernel', '0004_outbox_image')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Player',
            name='profile',
            field=fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
    ]
