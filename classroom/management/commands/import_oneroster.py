"""Imports a OneRoster 1.2 CSV zip (bulk or delta) as a district's IT runs it from a script:
prints what it created, updated and dropped, and each refused line with its reason
(docs/oneroster.md). Exits with status 1 when the zip cannot be imported at all."""

from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from classroom.oneroster.planning import SecretChoice
from classroom.oneroster.services import oneroster_import


class Command(BaseCommand):
    help = "Imports classes, teachers and rosters from a OneRoster 1.2 CSV zip."

    def add_arguments(self, parser):
        parser.add_argument("zip", type=Path, help="the OneRoster CSV zip (bulk or delta)")
        parser.add_argument("--dry-run", action="store_true", help="check and print, write nothing")
        parser.add_argument(
            "--secrets",
            choices=[SecretChoice.BY_GRADE, SecretChoice.PICTURES, SecretChoice.PIN],
            default=SecretChoice.BY_GRADE,
            help="what new children sign in with (by grade: pictures up to grade 2, else a PIN)",
        )

    def handle(self, *args, **options):
        try:
            data = options["zip"].read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {options['zip']}: {error}") from error
        outcome = oneroster_import(
            data=data, secrets_choice=options["secrets"], dry_run=options["dry_run"]
        )
        plan = outcome.plan
        for note in plan.notes:
            self.stdout.write(f"note: {note}")
        if not plan.ok:
            for problem in plan.problems:
                self.stderr.write(f"cannot import: {problem}")
            raise CommandError("nothing was imported")
        detail = options["verbosity"] >= 2
        for title, changes in (
            ("created", plan.created),
            ("updated", plan.updated),
            ("dropped", plan.dropped),
        ):
            counts = Counter(change.kind for change in changes)
            summary = ", ".join(_count(n, kind) for kind, n in sorted(counts.items())) or "nothing"
            self.stdout.write(f"{title}: {summary}")
            if detail:
                for change in changes:
                    self.stdout.write(f"  {change}")
        refused = len(plan.refusals)
        self.stdout.write(f"refused: {refused} line{'' if refused == 1 else 's'}")
        for refusal in sorted(plan.refusals, key=lambda r: (r.file, r.line)):
            self.stdout.write(f"  {refusal}")
        if plan.left_out:
            self.stdout.write(
                f"left out: {plan.left_out} rows not needed here (other roles, users who may "
                "not sign in (enabledUser false), users in no imported class, other teachers' "
                "classes)"
            )
        if outcome.applied:
            self.stdout.write(_done(len(outcome.student_ids)))
        else:
            self.stdout.write("dry run: nothing was written.")


def _done(new_children: int) -> str:
    if new_children == 0:
        return "done. No new children."
    if new_children == 1:
        return "done. 1 new child: print their login card from their class's page."
    return f"done. {new_children} new children: print their login cards from each class's page."


def _count(number: int, kind: str) -> str:
    if number == 1:
        return f"1 {kind}"
    return f"{number} {kind}es" if kind.endswith("s") else f"{number} {kind}s"
