from django.core.management.base import BaseCommand

from classroom.demo import demo_logins_text, seed_demo


class Command(BaseCommand):
    help = "Creates the demo teacher and demo class (safe to run again) and prints their logins."

    def handle(self, *args, **options):
        classroom = seed_demo()
        self.stdout.write(self.style.SUCCESS(f"Demo class ready: {classroom}"))
        self.stdout.write(demo_logins_text())
