from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('kernel', '0008_web_pages')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Outbox',
            name='scrub',
            field=fields.BooleanField(default=False),
        ),
    ]
