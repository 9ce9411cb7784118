from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('kernel', '0001_initial')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Outbox',
            name='at_all',
            field=fields.BooleanField(default=False),
        ),
    ]
