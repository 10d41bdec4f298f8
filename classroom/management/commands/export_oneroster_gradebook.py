"""A class's homework results as the OneRoster 1.2 gradebook zip its teacher downloads from the
class's "OneRoster results" page (docs/oneroster.md, "Sending results back"), for a district's
script; recorded in the class's record of who looked, as the operator."""

import datetime
import getpass
import os

from django.core.management.base import BaseCommand, CommandError

from classroom.access.services import data_access_record
from classroom.models import Classroom, DataAccess
from classroom.oneroster import gradebook as gradebook_selectors
from classroom.oneroster.models import OneRosterLink


class Command(BaseCommand):
    help = "Writes a class's homework results as a OneRoster 1.2 gradebook zip."

    def add_arguments(self, parser):
        parser.add_argument("class_id", help="the class's OneRoster sourcedId, or its class code")
        parser.add_argument("--output", required=True, help="the zip file to write")
        parser.add_argument("--homework", type=int, help="one homework's id (else all in dates)")
        parser.add_argument("--from", dest="start", type=datetime.date.fromisoformat)
        parser.add_argument("--to", dest="end", type=datetime.date.fromisoformat)

    def handle(self, *args, class_id, output, homework, start, end, **options):
        link = (
            OneRosterLink.objects.filter(kind=OneRosterLink.Kind.CLASS, sourced_id=class_id)
            .select_related("classroom")
            .first()
        )
        classroom = (
            link.classroom
            if link
            else Classroom.objects.filter(code=class_id.strip().upper()).first()
        )
        if classroom is None:
            raise CommandError(f"no class has the sourcedId or code {class_id!r}")
        chosen = gradebook_selectors.class_homework(
            classroom=classroom, homework_id=homework, start=start, end=end
        )
        book = gradebook_selectors.gradebook(classroom=classroom, assignments=chosen)
        if book is None:
            raise CommandError(f"{classroom} was not imported from OneRoster: it has no sourcedId")
        if not book.assignments:
            raise CommandError("no homework of the class is in the dates given")
        data_access_record(
            viewer=None,
            viewer_name=f"manage.py export_oneroster_gradebook (operator {getpass.getuser()})",
            classroom=classroom,
            kind=DataAccess.Kind.HOMEWORK_RESULTS,
            page=f"manage.py export_oneroster_gradebook {class_id} "
            f"--output {os.path.basename(output)}",
        )
        with open(output, "wb") as out:
            out.write(gradebook_selectors.gradebook_zip(book))
        self.stdout.write(
            f"{output}: {len(book.assignments)} line items, {len(book.results)} results"
        )
        for student in book.left_out:
            self.stdout.write(f"left out (no sourcedId, added here by hand): {student}")
