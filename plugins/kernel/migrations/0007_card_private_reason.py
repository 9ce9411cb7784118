from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('kernel', '0006_hardening')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Card',
            name='private_reason',
            field=fields.TextField(null=True, unique=False),
        ),
    ]
