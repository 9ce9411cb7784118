from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('kernel', '0003_linked_chats')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Outbox',
            name='image',
            field=fields.CharField(null=True, max_length=255),
        ),
    ]
