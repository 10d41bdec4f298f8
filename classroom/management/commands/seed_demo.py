from django.core.management.base import BaseCommand

from classroom.demo import demo_logins_text, seed_demo


class Command(BaseCommand):
    help = (
        "Creates the demo teacher and demo class (safe to run again) and prints their logins. A "
        "class nobody has played in yet also gets seven weeks of game sessions and homework."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-history",
            action="store_true",
            help="Only the teacher, the class and its students: no past sessions or homework.",
        )

    def handle(self, *args, **options):
        classroom = seed_demo(history=not options["no_history"])
        self.stdout.write(self.style.SUCCESS(f"Demo class ready: {classroom}"))
        self.stdout.write(demo_logins_text())
