from django.conf import settings
from django.core.management.base import BaseCommand

from classroom.lti import services


class Command(BaseCommand):
    help = (
        "Makes this tool's LTI signing key if there is none; with --rotate, a new one that signs "
        "from now on. A replaced key stays in the key set (/lti/.well-known/jwks.json) for "
        "LTI_OLD_KEY_KEPT_HOURS, then the next run takes it out."
    )

    def add_arguments(self, parser):
        parser.add_argument("--rotate", action="store_true", help="make a new signing key")

    def handle(self, *args, rotate=False, **options):
        rotation = services.keys_rotate(rotate=rotate)
        if rotation.created is not None:
            self.stdout.write(f"New signing key: {rotation.created}")
        else:
            self.stdout.write("The signing key is unchanged (--rotate makes a new one).")
        hours = settings.LTI_OLD_KEY_KEPT_HOURS
        self.stdout.write(
            f"Keys taken out of the key set (replaced over {hours:g} hours ago): {rotation.retired}"
        )
