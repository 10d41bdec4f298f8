"""Writes of an OneRoster import: what ``planning`` planned, in one transaction.

Children are made in bulk (5,000 in a few seconds): the same account ``accounts.services``
makes one at a time (a generated username, no e-mail, no usable password, a picture password or
PIN), with the sealed copy the login cards print."""

import secrets
import uuid
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction

from accounts.models import Role
from classroom.models import Classroom, Enrollment, LoginCard
from classroom.oneroster.models import OneRosterLink
from classroom.oneroster.planning import ImportPlan, SecretChoice, plan_import, secret_kind_for
from classroom.oneroster.reading import Bundle, read_zip
from classroom.roster.student_secrets import generate_secret, seal, secret_tag
from classroom.services import classroom_create

Kind = OneRosterLink.Kind
User = get_user_model()
BATCH = 1000


@dataclass
class ImportOutcome:
    plan: ImportPlan
    applied: bool
    student_ids: list[int] = field(default_factory=list)  # children made: their cards to print


def oneroster_import(
    *,
    data: bytes | None = None,
    bundle: Bundle | None = None,
    teacher=None,
    secrets_choice: str = SecretChoice.BY_GRADE,
    dry_run: bool = False,
) -> ImportOutcome:
    """Plans the zip and, unless ``dry_run`` or the zip cannot be imported, applies the plan:
    its refused lines are left out, the rest is written. ``teacher``: the page's signed-in
    teacher (only their classes); None: the whole zip (the command)."""
    if bundle is None:
        bundle = read_zip(data)
    with transaction.atomic():
        plan = plan_import(bundle=bundle, teacher=teacher)
        if dry_run or not plan.ok:
            return ImportOutcome(plan=plan, applied=False)
        student_ids = _apply(plan, secrets_choice)
    return ImportOutcome(plan=plan, applied=True, student_ids=student_ids)


def _apply(plan: ImportPlan, secrets_choice: str) -> list[int]:
    teacher_users = _teachers(plan)
    classrooms = _classes(plan, teacher_users)
    student_users, created = _students(plan, classrooms, secrets_choice)
    _enrolments(plan, classrooms, student_users)
    return created


def _link(kind, sid, **fields) -> OneRosterLink:
    link, _created = OneRosterLink.objects.update_or_create(
        kind=kind, sourced_id=sid, defaults=fields
    )
    return link


def _teachers(plan: ImportPlan) -> dict[str, object]:
    """{sourcedId: account} of every teacher the plan names, made or linked as needed.

    A new teacher's password is one nobody knows: "Forgot your password?" sends them a link to
    set their own (Django's reset skips accounts without a usable password, so it is a random
    one, not none). One random password is hashed for the whole import, as hashing one costs a
    second of CPU by design and a district has hundreds of teachers; it is discarded unread."""
    users = {}
    unknown_password = None
    for teacher in plan.teachers:
        if teacher.link is not None:
            account = teacher.link.user
            if teacher.new_name is not None:
                account.display_name = teacher.new_name
                account.save(update_fields=["display_name"])
        else:
            account = teacher.existing_teacher
            if account is None:
                unknown_password = unknown_password or make_password(secrets.token_urlsafe(32))
                account = User.objects.create(
                    username=teacher.email,
                    email=teacher.email,
                    role=Role.TEACHER,
                    display_name=teacher.name,
                    password=unknown_password,
                )
        _link(Kind.TEACHER, teacher.sourced_id, user=account, imported_name=teacher.name)
        users[teacher.sourced_id] = account
    return users


def _teacher_account(sid: str, users: dict):
    if sid in users:
        return users[sid]
    return OneRosterLink.objects.select_related("user").get(kind=Kind.TEACHER, sourced_id=sid).user


def _classes(plan: ImportPlan, teachers: dict) -> dict[str, Classroom]:
    classrooms = {}
    for item in plan.classes:
        if item.link is None:
            classroom = classroom_create(
                teacher=_teacher_account(item.teacher_sid, teachers), name=item.title
            )
        else:
            classroom = item.link.classroom
            fields = []
            if item.new_name is not None:
                classroom.name = item.new_name
                fields.append("name")
            if item.new_teacher:
                classroom.teacher = _teacher_account(item.teacher_sid, teachers)
                fields.append("teacher")
            if fields:
                classroom.save(update_fields=fields)
        _link(Kind.CLASS, item.sourced_id, classroom=classroom, imported_name=item.title)
        classrooms[item.sourced_id] = classroom
    return classrooms


def _students(plan: ImportPlan, classrooms: dict, secrets_choice: str):
    """{sourcedId: account id} of the children the plan names; and the ids of those made."""
    ids = {}
    new, cards = [], []
    first_class = {}
    for enrolment in plan.enrolments:
        first_class.setdefault(enrolment.user_sid, enrolment.class_sid)
    zones = _class_zones(plan, classrooms, first_class)
    for student in plan.students:
        if student.link is not None:
            account = student.link.user
            fields = []
            if student.new_name is not None:
                account.display_name = student.new_name
                fields.append("display_name")
            if student.new_active is not None:
                # Saved, not updated: a child who may no longer sign in loses their sockets too.
                account.is_active = student.new_active
                fields.append("is_active")
            if fields:
                account.save(update_fields=fields)
            OneRosterLink.objects.filter(pk=student.link.pk).update(imported_name=student.name)
            ids[student.sourced_id] = student.link.user_id
            continue
        secret = generate_secret(secret_kind_for(student, secrets_choice))
        account = User(
            username=f"student-{uuid.uuid4().hex[:12]}",
            role=Role.STUDENT,
            display_name=student.name,
            time_zone=zones.get(first_class.get(student.sourced_id), ""),
        )
        account.set_unusable_password()
        account.set_student_secret(secret.kind, secret.value)
        new.append((student, account))
        cards.append(secret)
    User.objects.bulk_create([account for _student, account in new], batch_size=BATCH)
    LoginCard.objects.bulk_create(
        [
            LoginCard(
                student=account,
                sealed_secret=seal(secret),
                secret_tag=secret_tag(account.secret_hash),
            )
            for (_student, account), secret in zip(new, cards, strict=True)
        ],
        batch_size=BATCH,
    )
    OneRosterLink.objects.bulk_create(
        [
            OneRosterLink(
                kind=Kind.STUDENT,
                sourced_id=student.sourced_id,
                user=account,
                imported_name=student.name,
            )
            for student, account in new
        ],
        batch_size=BATCH,
    )
    for student, account in new:
        ids[student.sourced_id] = account.pk
    return ids, [account.pk for _student, account in new]


def _class_zones(plan, classrooms, first_class) -> dict[str, str]:
    """A child's school day is their teacher's (classroom.services): the zone of each class."""
    wanted = set(first_class.values())
    zones = {sid: c.teacher.time_zone for sid, c in classrooms.items() if sid in wanted}
    missing = wanted - set(zones)
    for link in OneRosterLink.objects.filter(kind=Kind.CLASS, sourced_id__in=missing).values(
        "sourced_id", "classroom__teacher__time_zone"
    ):
        zones[link["sourced_id"]] = link["classroom__teacher__time_zone"]
    return zones


def _enrolments(plan: ImportPlan, classrooms: dict, students: dict) -> None:
    wanted = plan.enrolments + plan.enrolment_links
    class_sids = {e.class_sid for e in wanted} - set(classrooms)
    class_ids = {sid: c.pk for sid, c in classrooms.items()}
    class_ids |= dict(
        OneRosterLink.objects.filter(kind=Kind.CLASS, sourced_id__in=class_sids).values_list(
            "sourced_id", "classroom_id"
        )
    )
    user_sids = {e.user_sid for e in wanted} - set(students)
    student_ids = dict(students)
    student_ids |= dict(
        OneRosterLink.objects.filter(kind=Kind.STUDENT, sourced_id__in=user_sids).values_list(
            "sourced_id", "user_id"
        )
    )
    Enrollment.objects.bulk_create(
        [
            Enrollment(classroom_id=class_ids[e.class_sid], student_id=student_ids[e.user_sid])
            for e in plan.enrolments
        ],
        batch_size=BATCH,
        ignore_conflicts=True,  # the same child twice in a class is one enrolment
    )
    sids = [e.sourced_id for e in wanted]
    OneRosterLink.objects.filter(kind=Kind.ENROLLMENT, sourced_id__in=sids).delete()
    OneRosterLink.objects.bulk_create(
        [
            OneRosterLink(
                kind=Kind.ENROLLMENT,
                sourced_id=e.sourced_id,
                classroom_id=class_ids[e.class_sid],
                user_id=student_ids[e.user_sid],
            )
            for e in wanted
        ],
        batch_size=BATCH,
    )
    # Dropped: the child leaves the class; their account, answers and figures stay.
    for link in plan.drops:
        Enrollment.objects.filter(classroom_id=link.classroom_id, student_id=link.user_id).delete()
    OneRosterLink.objects.filter(pk__in=[link.pk for link in plan.drops]).delete()
