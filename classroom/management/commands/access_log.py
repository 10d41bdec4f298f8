"""The record of who looked at a class's children's data, as CSV on the standard output, for an
operator asked by a school (docs/privacy.md, "Who looked"); teachers have the class's page."""

import csv

from django.core.management.base import BaseCommand, CommandError

from classroom.access.selectors import class_access_log_table
from classroom.models import Classroom


class Command(BaseCommand):
    help = "Prints a class's record of who looked at its children's data, as CSV."

    def add_arguments(self, parser):
        parser.add_argument("class_code", help="the class's code, as its teacher's pages show it")

    def handle(self, *args, class_code, **options):
        classroom = Classroom.objects.filter(code=class_code.strip().upper()).first()
        if classroom is None:
            raise CommandError(f"no class has the code {class_code!r}")
        csv.writer(self.stdout).writerows(class_access_log_table(classroom=classroom))
