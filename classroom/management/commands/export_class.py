"""A class's answers and figures as the zip of CSV tables its teacher downloads from the class page
(docs/privacy.md, "Taking it out"), for an operator or a school's script; recorded in the class's
record of who looked, as the operator."""

import getpass
import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from classroom.access.services import data_access_record
from classroom.models import Classroom, DataAccess
from classroom.roster.class_tables import class_tables_zip


class Command(BaseCommand):
    help = "Writes a class's answers and figures as a zip of CSV files, with a README.csv."

    def add_arguments(self, parser):
        parser.add_argument("class_code", help="the class's code, as its teacher's pages show it")
        parser.add_argument("--output", required=True, help="the zip file to write")
        parser.add_argument(
            "--language",
            default=settings.LANGUAGE_CODE,
            choices=[code for code, _name in settings.LANGUAGES],
            help="the language of README.csv's descriptions (column names are always English)",
        )

    def handle(self, *args, class_code, output, language, **options):
        classroom = (
            Classroom.objects.filter(code=class_code.strip().upper())
            .select_related("teacher")
            .first()
        )
        if classroom is None:
            raise CommandError(f"no class has the code {class_code!r}")
        data_access_record(
            viewer=None,
            viewer_name=f"manage.py export_class (operator {_operator()})",
            classroom=classroom,
            kind=DataAccess.Kind.CLASS_TABLES,
            page=f"manage.py export_class {classroom.code} --output {os.path.basename(output)}",
        )
        # Written beside the file and moved over it once whole: a script never reads half a zip.
        partial, written = f"{output}.part", 0
        try:
            with open(partial, "wb") as out:
                for chunk in class_tables_zip(classroom=classroom, language=language):
                    out.write(chunk)
                    written += len(chunk)
            os.replace(partial, output)
        finally:
            if os.path.exists(partial):
                os.remove(partial)
        self.stdout.write(f"{output}: {written:,} bytes")


def _operator() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"
