"""What an OneRoster zip would do here, row by row, before anything is written.

``plan_import`` reads the rows ``reading`` parsed (``rows.RowReader`` refuses each bad one with
its file, line and reason: the preview and the command print them all), and compares the rest
with what earlier
imports made (``OneRosterLink``): classes, teachers and children to create or update, enrolments
to add or drop. ``services.oneroster_apply`` then writes exactly that. The same file a second
time plans nothing.

Which rows count: classes; users with the role teacher or student who are in an imported class
(other roles, and users in no class, are left out: the platform needs no account for them);
their enrolments. Orgs, academic sessions and courses are only checked as the classes' references.
"""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from accounts.models import Role, SecretKind
from classroom.models import Enrollment
from classroom.oneroster.models import OneRosterLink
from classroom.oneroster.reading import Bundle, Mode, Table
from classroom.oneroster.rows import Refusal, RowReader, UserPlan
from classroom.roster.synced_names import source_name_to_take

Kind = OneRosterLink.Kind
# Children in these grades get pictures; older ones a PIN (secrets "by grade").
PICTURE_GRADES = {"IT", "PR", "PK", "TK", "KG", "01", "02", "1", "2"}


class SecretChoice:
    BY_GRADE = "by-grade"
    PICTURES = SecretKind.PICTURE
    PIN = SecretKind.PIN


@dataclass
class Change:
    """One line of what an import does: the kind of object, its sourcedId, its name here."""

    kind: str
    sourced_id: str
    name: str
    detail: str = ""

    def __str__(self) -> str:
        text = f"{self.kind} {self.sourced_id} ({self.name})"
        return f"{text}: {self.detail}" if self.detail else text


@dataclass
class ClassPlan:
    sourced_id: str
    title: str
    teacher_sid: str
    link: OneRosterLink | None = None  # None: a new class
    new_name: str | None = None  # the name to set, when it changes
    new_teacher: bool = False


@dataclass
class EnrolmentPlan:
    sourced_id: str
    class_sid: str
    user_sid: str


@dataclass
class ImportPlan:
    mode_note: str = ""
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    classes: list[ClassPlan] = field(default_factory=list)
    teachers: list[UserPlan] = field(default_factory=list)
    students: list[UserPlan] = field(default_factory=list)
    enrolments: list[EnrolmentPlan] = field(default_factory=list)  # to add
    enrolment_links: list[EnrolmentPlan] = field(default_factory=list)  # in place: keep the sid
    drops: list[OneRosterLink] = field(default_factory=list)  # enrolment links to remove
    left_out: int = 0  # rows read and not needed here (other roles, users in no class, ...)
    # Filled by planning, read by the writes and the preview.
    created: list[Change] = field(default_factory=list)
    updated: list[Change] = field(default_factory=list)
    dropped: list[Change] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the import can run: the zip is readable; refused lines are left out."""
        return not self.problems

    @property
    def changes(self) -> int:
        return len(self.created) + len(self.updated) + len(self.dropped)


def secret_kind_for(plan: UserPlan, choice: str) -> str:
    if choice in (SecretKind.PICTURE, SecretKind.PIN):
        return choice
    grades = {grade.strip().upper() for grade in plan.grades.split(",") if grade.strip()}
    return SecretKind.PIN if grades and not grades & PICTURE_GRADES else SecretKind.PICTURE


class _Planner(RowReader):
    def __init__(self, bundle: Bundle, teacher):
        self.bundle = bundle
        self.scope_teacher = teacher  # the page: only this teacher's classes
        self.plan = ImportPlan(problems=list(bundle.problems), notes=list(bundle.notes))
        self.links = {kind: {} for kind in Kind.values}
        self.usable: dict[str, Table] = {}
        self.disabled: set[str] = set()  # new users who may not sign in: no account
        # A class's first refused teacher enrolment (user, line): why it has no teacher.
        self.refused_teachers: dict[str, tuple[str, int]] = {}

    # --- planning --------------------------------------------------------------------------------

    def run(self) -> ImportPlan:
        self.check_columns()
        if self.plan.problems:
            return self.plan
        self.load_links()
        for name in ("orgs.csv", "academicSessions.csv", "courses.csv"):
            for _table, _row, _sid in self.rows(name):
                pass  # their duplicates and statuses are named like any file's
        classes = self.read_classes()
        users = self.read_users()
        enrolments, deleted = self.read_enrolments(classes, users)
        self.plan_classes(classes, enrolments)
        self.plan_users(users, enrolments)
        self.plan_enrolments(enrolments, deleted, users)
        return self.plan

    def in_scope(self, class_sid: str, teacher_sids: list[str]) -> bool:
        if self.scope_teacher is None:
            return True
        link = self.links[Kind.CLASS].get(class_sid)
        if link is not None:
            return link.classroom.teacher_id == self.scope_teacher.pk
        return any(self.is_scope_teacher(sid) for sid in teacher_sids)

    def is_scope_teacher(self, sid: str) -> bool:
        """Whether the user ``sid`` of the zip is the page's signed-in teacher."""
        teacher_link = self.links[Kind.TEACHER].get(sid)
        if teacher_link is not None:
            return teacher_link.user_id == self.scope_teacher.pk
        return self.teacher_emails.get(sid) == self.scope_teacher.email.lower()

    def plan_classes(self, classes, enrolments) -> None:
        teachers: dict[str, list[tuple[bool, str]]] = {}
        for class_sid, user_sid, role, primary, _row in enrolments.values():
            if role == Role.TEACHER:
                teachers.setdefault(class_sid, []).append((not primary, user_sid))
        # Primary teachers first; a teacher enrolled twice in a class is its teacher once.
        self.class_teachers = {
            sid: list(dict.fromkeys(t for _p, t in sorted(ts))) for sid, ts in teachers.items()
        }
        self.teacher_emails = {}
        table = self.usable.get("users.csv")
        for row in table.rows if table else []:
            self.teacher_emails[row.get("sourcedId")] = row.get("email").lower()
        self.accepted_classes: set[str] = set()
        named = {class_sid for class_sid, *_rest in enrolments.values()}
        for class_sid in sorted(set(classes) | named):
            row_title = classes.get(class_sid)
            link = self.links[Kind.CLASS].get(class_sid)
            if row_title is None and link is None:
                continue  # its enrolments were refused already
            teacher_sids = self.class_teachers.get(class_sid, [])
            if not self.in_scope(class_sid, teacher_sids):
                self.plan.left_out += 1
                continue
            if link is None and not teacher_sids:
                row, _title = row_title
                refused = self.refused_teachers.get(class_sid)
                self.refuse(
                    "classes.csv",
                    row,
                    class_sid,
                    _(
                        "the class has no teacher to import: its teacher %(sid)s was refused "
                        "(see enrollments.csv line %(line)s)."
                    )
                    % {"sid": refused[0], "line": refused[1]}
                    if refused
                    else _(
                        "the class has no teacher in enrollments.csv: a class here is a teacher's."
                    ),
                )
                continue
            if self.scope_teacher is not None:
                # The page imports the signed-in teacher's class as theirs, co-taught or not.
                teacher_sids.sort(key=lambda sid: not self.is_scope_teacher(sid))
            self.accepted_classes.add(class_sid)
            title = row_title[1] if row_title else link.imported_name
            plan = ClassPlan(
                sourced_id=class_sid,
                title=title,
                teacher_sid=teacher_sids[0] if teacher_sids else "",
                link=link,
            )
            for other in teacher_sids[1:] if self.scope_teacher is None else []:
                self.refuse(
                    "enrollments.csv",
                    next(
                        row.line
                        for c, u, r, _p, row in enrolments.values()
                        if c == class_sid and u == other and r == Role.TEACHER
                    ),
                    other,
                    _(
                        "a class here has one teacher: %(sid)s has an account, and the class "
                        "stays with %(first)s."
                    )
                    % {"sid": other, "first": teacher_sids[0]},
                )
            if link is None:
                self.plan.created.append(Change(_("class"), class_sid, title))
                self.plan.classes.append(plan)
                continue
            classroom = link.classroom
            details = []
            # A name changed here is kept; the file's new title is noted as the imported one.
            plan.new_name = source_name_to_take(
                incoming=title, imported=link.imported_name, current=classroom.name
            )
            if plan.new_name is not None:
                details.append(_("renamed from %(old)s") % {"old": classroom.name})
            current = self.links[Kind.TEACHER].get(plan.teacher_sid)
            if plan.teacher_sid and (current is None or current.user_id != classroom.teacher_id):
                plan.new_teacher = True
                details.append(_("new teacher %(sid)s") % {"sid": plan.teacher_sid})
            if details:
                self.plan.updated.append(
                    Change(
                        _("class"), class_sid, plan.new_name or classroom.name, ", ".join(details)
                    )
                )
            if details or title != link.imported_name:
                self.plan.classes.append(plan)

    def plan_users(self, users, enrolments) -> None:
        wanted = {
            user_sid
            for class_sid, user_sid, _role, _primary, _row in enrolments.values()
            if class_sid in self.accepted_classes
        }
        wanted |= {plan.teacher_sid for plan in self.plan.classes if plan.teacher_sid}
        teachers_by_email = {}
        emails = [u.email for u in users.values() if u and u.role == Role.TEACHER and u.email]
        if emails:
            teachers_by_email = {
                teacher.email.lower(): teacher
                for teacher in get_user_model().objects.filter(role=Role.TEACHER, email__in=emails)
            }
        for sid, user in users.items():
            if user is None:
                continue
            link = self.links[Kind.TEACHER].get(sid) or self.links[Kind.STUDENT].get(sid)
            if link is None and sid not in wanted:
                self.plan.left_out += 1
                continue
            if link is not None and self.scope_teacher is not None and sid not in wanted:
                continue  # the page touches only what its classes name
            if (
                self.scope_teacher is not None
                and user.role == Role.TEACHER
                and not self.is_scope_teacher(sid)
            ):
                self.plan.left_out += 1  # a co-teacher's account is the operator's to make
                continue
            user.link = link
            into = self.plan.teachers if user.role == Role.TEACHER else self.plan.students
            kind = _("teacher") if user.role == Role.TEACHER else _("student")
            if link is None:
                user.existing_teacher = (
                    teachers_by_email.get(user.email) if user.role == Role.TEACHER else None
                )
                detail = _("the account already here") if user.existing_teacher else ""
                self.plan.created.append(Change(kind, sid, user.name, detail))
                into.append(user)
                continue
            if link.kind != user.role:
                self.refuse(
                    "users.csv",
                    user.line,
                    sid,
                    _("the user was imported as a %(kind)s and cannot change role.")
                    % {"kind": link.kind},
                )
                continue
            details = []
            if user.name != link.imported_name:
                user.new_name = source_name_to_take(
                    incoming=user.name, imported=link.imported_name, current=link.user.display_name
                )
                if user.new_name is not None:
                    details.append(_("renamed from %(old)s") % {"old": link.user})
            if user.role == Role.STUDENT and user.enabled != link.user.is_active:
                user.new_active = user.enabled
                details.append(
                    _("may sign in again (enabledUser true)")
                    if user.enabled
                    else _("may no longer sign in (enabledUser false); their history stays")
                )
            if details:
                self.plan.updated.append(Change(kind, sid, user.name, ", ".join(details)))
            if details or user.name != link.imported_name:
                into.append(user)  # the imported name is noted either way

    def plan_enrolments(self, enrolments, deleted, users) -> None:
        existing = set(
            Enrollment.objects.filter(
                classroom__oneroster_links__kind=Kind.CLASS,
            ).values_list("classroom_id", "student_id")
        )
        for sid, (class_sid, user_sid, role, _primary, _row) in enrolments.items():
            if role != Role.STUDENT or class_sid not in self.accepted_classes:
                continue
            plan = EnrolmentPlan(sid, class_sid, user_sid)
            class_link = self.links[Kind.CLASS].get(class_sid)
            user_link = self.links[Kind.STUDENT].get(user_sid)
            link = self.links[Kind.ENROLLMENT].get(sid)
            if (
                class_link is not None
                and user_link is not None
                and (class_link.classroom_id, user_link.user_id) in existing
            ):
                if link is None or (link.classroom_id, link.user_id) != (
                    class_link.classroom_id,
                    user_link.user_id,
                ):
                    self.plan.enrolment_links.append(plan)
                continue
            self.plan.enrolments.append(plan)
            self.plan.created.append(
                Change(
                    _("enrolment"),
                    sid,
                    _("%(user)s in %(class)s") % {"user": user_sid, "class": class_sid},
                )
            )
        to_drop = {sid for sid in deleted if sid in self.links[Kind.ENROLLMENT]}
        for sid, user in users.items():
            if user is None and sid in self.links[Kind.STUDENT]:
                student_id = self.links[Kind.STUDENT][sid].user_id
                to_drop |= {
                    link.sourced_id
                    for link in self.links[Kind.ENROLLMENT].values()
                    if link.user_id == student_id
                }
        table = self.usable.get("enrollments.csv")
        if table is not None and table.mode == Mode.BULK:
            # A bulk file is the whole roster of the classes it names: an enrolment imported
            # before into one of them and missing now has ended.
            named = {
                self.links[Kind.CLASS][sid].classroom_id
                for sid in self.accepted_classes
                if sid in self.links[Kind.CLASS]
            }
            in_file = {row.get("sourcedId") for row in table.rows}
            to_drop |= {
                link.sourced_id
                for link in self.links[Kind.ENROLLMENT].values()
                if link.classroom_id in named and link.sourced_id not in in_file
            }
        for sid in sorted(to_drop):
            link = self.links[Kind.ENROLLMENT][sid]
            if self.scope_teacher is not None and (
                link.classroom.teacher_id != self.scope_teacher.pk
            ):
                continue
            self.plan.drops.append(link)
            if (link.classroom_id, link.user_id) in existing:
                self.plan.dropped.append(
                    Change(
                        _("enrolment"),
                        sid,
                        _("%(user)s out of %(class)s")
                        % {"user": link.user, "class": link.classroom.name},
                        _("the child's history is kept"),
                    )
                )


def plan_import(*, bundle: Bundle, teacher=None) -> ImportPlan:
    """``teacher``: the page's signed-in teacher, whose own classes alone are planned (a class
    they teach in the file, or one imported before that is theirs); None: the whole zip (the
    command, an operator's)."""
    return _Planner(bundle, teacher).run()
