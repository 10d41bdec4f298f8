"""After SECRET_KEY (or STUDENT_SECRET_KEY) was rotated: moves every child whose secret the roster
keeps a copy of to the new key at once, and says how many are left to move at their next sign-in
(docs/security.md, "Rotating the key"). Run it with the servers' environment, fallbacks set."""

from django.core.management.base import BaseCommand

from classroom.roster.services import secrets_move_to_current_key


class Command(BaseCommand):
    help = "Moves the children's secrets (hashes and card copies) to the current key."

    def handle(self, *args, **options):
        move = secrets_move_to_current_key()
        self.stdout.write(
            f"moved to the current key: {move.moved}\n"
            f"already under it: {move.current}\n"
            f"no copy here, moving at their next sign-in: {move.without_copy}\n"
            f"a copy no key in force reads (reset these secrets): {move.unreadable}"
        )
