"""Children's wrong PINs and picture passwords were kept in plain text in django-axes' record of
failed sign-ins (``secret=1235``, beside the right one). The setting now masks them
(``AXES_SENSITIVE_PARAMETERS``); this masks what was stored before."""

import re

from django.db import migrations

MASK = "********************"
_SECRET_LINE = re.compile(r"^(secret=).*$", re.MULTILINE)


def mask_stored_secrets(apps, schema_editor):
    AccessAttempt = apps.get_model("axes", "AccessAttempt")
    for attempt in AccessAttempt.objects.filter(post_data__contains="secret=").iterator():
        masked = _SECRET_LINE.sub(rf"\g<1>{MASK}", attempt.post_data)
        if masked != attempt.post_data:
            attempt.post_data = masked
            attempt.save(update_fields=["post_data"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("axes", "0010_accessattemptexpiration"),
    ]

    operations = [migrations.RunPython(mask_stored_secrets, migrations.RunPython.noop)]
