"""What an OneRoster zip would do here, row by row, before anything is written.

``plan_import`` reads the rows ``reading`` parsed, refuses each bad one with its file, line and
reason (the preview and the command print them all), and compares the rest with what earlier
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
from classroom.oneroster.reading import Bundle, Mode, Row, Table
from classroom.roster.synced_names import source_name_to_take

Kind = OneRosterLink.Kind
NAME_MAX_LENGTH = 80
TO_BE_DELETED = "tobedeleted"
STATUSES = {"active", TO_BE_DELETED, ""}
# OneRoster 1.2's roles (and 1.1's "administrator"); "ext:" marks a district's own.
ROLES = {
    "administrator",
    "aide",
    "counselor",
    "districtAdministrator",
    "guardian",
    "parent",
    "principal",
    "proctor",
    "relative",
    "siteAdministrator",
    "student",
    "systemAdministrator",
    "teacher",
}
# Children in these grades get pictures; older ones a PIN (secrets "by grade").
PICTURE_GRADES = {"IT", "PR", "PK", "TK", "KG", "01", "02", "1", "2"}

REQUIRED_COLUMNS = {
    "orgs.csv": ["sourcedId", "name", "type"],
    "academicSessions.csv": ["sourcedId", "title", "type", "startDate", "endDate", "schoolYear"],
    "courses.csv": ["sourcedId", "title", "orgSourcedId"],
    "classes.csv": [
        "sourcedId",
        "title",
        "courseSourcedId",
        "classType",
        "schoolSourcedId",
        "termSourcedIds",
    ],
    "users.csv": ["sourcedId", "enabledUser", "givenName", "familyName"],
    "roles.csv": ["sourcedId", "userSourcedId", "roleType", "role", "orgSourcedId"],
    "enrollments.csv": ["sourcedId", "classSourcedId", "schoolSourcedId", "userSourcedId", "role"],
}
# Without these the import would make no sense: a missing column stops it whole.
CORE_FILES = {"classes.csv", "users.csv", "enrollments.csv"}
DELTA_COLUMNS = ["status", "dateLastModified"]


class SecretChoice:
    BY_GRADE = "by-grade"
    PICTURES = SecretKind.PICTURE
    PIN = SecretKind.PIN


@dataclass
class Refusal:
    file: str
    line: int
    sourced_id: str
    reason: str

    def __str__(self) -> str:
        return _("%(file)s line %(line)s: %(reason)s") % {
            "file": self.file,
            "line": self.line,
            "reason": self.reason,
        }


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
class UserPlan:
    sourced_id: str
    role: str
    name: str
    email: str = ""
    grades: str = ""
    line: int = 0
    link: OneRosterLink | None = None
    existing_teacher: object = None  # a teacher account here with the same e-mail, to link
    new_name: str | None = None


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


def _person_name(row: Row) -> str:
    given = row.get("preferredGivenName") or row.get("preferredFirstName") or row.get("givenName")
    family = row.get("preferredFamilyName") or row.get("preferredLastName") or row.get("familyName")
    return " ".join(f"{given} {family}".split())


def secret_kind_for(plan: UserPlan, choice: str) -> str:
    if choice in (SecretKind.PICTURE, SecretKind.PIN):
        return choice
    grades = {grade.strip().upper() for grade in plan.grades.split(",") if grade.strip()}
    return SecretKind.PIN if grades and not grades & PICTURE_GRADES else SecretKind.PICTURE


class _Planner:
    def __init__(self, bundle: Bundle, teacher):
        self.bundle = bundle
        self.scope_teacher = teacher  # the page: only this teacher's classes
        self.plan = ImportPlan(problems=list(bundle.problems), notes=list(bundle.notes))
        self.links = {kind: {} for kind in Kind.values}
        self.usable: dict[str, Table] = {}

    def refuse(self, table: Table | str, row: Row | int, sourced_id: str, reason: str) -> None:
        name = table if isinstance(table, str) else table.name
        line = row if isinstance(row, int) else row.line
        self.plan.refusals.append(Refusal(name, line, sourced_id, reason))

    # --- reading ---------------------------------------------------------------------------------

    def check_columns(self) -> None:
        for name, table in self.bundle.tables.items():
            required = list(REQUIRED_COLUMNS[name])
            if table.mode == Mode.DELTA:
                required += DELTA_COLUMNS
            missing = [column for column in required if column not in table.columns]
            if not missing:
                self.usable[name] = table
                continue
            reason = _("the required column “%(columns)s” is missing.") % {
                "columns": "”, “".join(missing)
            }
            if name in CORE_FILES:
                self.plan.problems.append(f"{name}: {reason}")
            else:
                self.refuse(name, 1, "", reason + " " + _("The file is not read."))

    def rows(self, name: str):
        """The rows of a usable file with a sourcedId, each sourcedId once (a second is
        refused), and with a status the standard knows."""
        table = self.usable.get(name)
        if table is None:
            return
        seen: dict[str, int] = {}
        for row in table.rows:
            sid = row.get("sourcedId")
            if not sid:
                self.refuse(table, row, "", _("the sourcedId is empty."))
                continue
            if sid in seen:
                self.refuse(
                    table,
                    row,
                    sid,
                    _("the sourcedId %(sid)s is already on line %(line)s.")
                    % {"sid": sid, "line": seen[sid]},
                )
                continue
            seen[sid] = row.line
            if row.get("status") not in STATUSES:
                self.refuse(
                    table,
                    row,
                    sid,
                    _("the status “%(status)s” is neither active nor tobedeleted.")
                    % {"status": row.get("status")},
                )
                continue
            yield table, row, sid

    def known(self, name: str) -> set[str] | None:
        """The active sourcedIds of a reference file, or None when the zip has none to check
        against (a delta may name objects sent before)."""
        table = self.usable.get(name)
        if table is None or table.mode != Mode.BULK:
            return None
        return {
            row.get("sourcedId")
            for row in table.rows
            if row.get("sourcedId") and row.get("status") != TO_BE_DELETED
        }

    def load_links(self) -> None:
        for link in OneRosterLink.objects.select_related("classroom", "user"):
            self.links[link.kind][link.sourced_id] = link

    # --- planning --------------------------------------------------------------------------------

    def run(self) -> ImportPlan:
        self.check_columns()
        if self.plan.problems:
            return self.plan
        self.load_links()
        for name in ("orgs.csv", "academicSessions.csv", "courses.csv", "roles.csv"):
            for _table, _row, _sid in self.rows(name):
                pass  # their duplicates and statuses are named like any file's
        classes = self.read_classes()
        users = self.read_users()
        enrolments, deleted = self.read_enrolments(classes, users)
        self.plan_classes(classes, enrolments)
        self.plan_users(users, enrolments)
        self.plan_enrolments(enrolments, deleted, users)
        return self.plan

    def read_classes(self) -> dict[str, tuple[Row, str]]:
        courses = self.known("courses.csv")
        orgs = self.known("orgs.csv")
        terms = self.known("academicSessions.csv")
        classes = {}
        for table, row, sid in self.rows("classes.csv"):
            if row.get("status") == TO_BE_DELETED:
                if sid in self.links[Kind.CLASS]:
                    self.refuse(
                        table,
                        row,
                        sid,
                        _(
                            "the class is kept: a class and its history are deleted here by "
                            "its teacher, not by an import."
                        ),
                    )
                continue
            title = " ".join(row.get("title").split())
            reasons = []
            if not title:
                reasons.append(_("the title is empty."))
            if courses is not None and row.get("courseSourcedId") not in courses:
                reasons.append(
                    _("the course %(sid)s is not in courses.csv.")
                    % {"sid": row.get("courseSourcedId")}
                )
            if orgs is not None and row.get("schoolSourcedId") not in orgs:
                reasons.append(
                    _("the school %(sid)s is not in orgs.csv.")
                    % {"sid": row.get("schoolSourcedId")}
                )
            if terms is not None:
                for term in filter(None, (t.strip() for t in row.get("termSourcedIds").split(","))):
                    if term not in terms:
                        reasons.append(
                            _("the term %(sid)s is not in academicSessions.csv.") % {"sid": term}
                        )
            if reasons:
                self.refuse(table, row, sid, " ".join(reasons))
                continue
            classes[sid] = (row, title[:NAME_MAX_LENGTH])
        return classes

    def user_roles(self) -> dict[str, str]:
        """A user's role from roles.csv (1.2), the primary one first."""
        roles: dict[str, str] = {}
        table = self.usable.get("roles.csv")
        if table is None:
            return roles
        for row in sorted(table.rows, key=lambda r: r.get("roleType") != "primary"):
            if row.get("status") != TO_BE_DELETED:
                roles.setdefault(row.get("userSourcedId"), row.get("role"))
        return roles

    def read_users(self) -> dict[str, UserPlan | None]:
        """Accepted users (None: a user to delete)."""
        from_roles = self.user_roles()
        users: dict[str, UserPlan | None] = {}
        teacher_lines: dict[str, int] = {}
        for table, row, sid in self.rows("users.csv"):
            if row.get("status") == TO_BE_DELETED:
                if sid in self.links[Kind.TEACHER]:
                    self.refuse(
                        table,
                        row,
                        sid,
                        _(
                            "the teacher is kept: a teacher's account is closed here, not by an "
                            "import."
                        ),
                    )
                    continue
                users[sid] = None
                continue
            role = row.get("role") if "role" in table.columns else from_roles.get(sid, "")
            if role and role not in ROLES and not role.startswith("ext:"):
                self.refuse(
                    table,
                    row,
                    sid,
                    _("the role “%(role)s” is not a OneRoster role.") % {"role": role},
                )
                continue
            if role and role not in (Role.TEACHER, Role.STUDENT):
                self.plan.left_out += 1
                continue
            name = _person_name(row)
            if not name:
                self.refuse(table, row, sid, _("the name is empty."))
                continue
            email = row.get("email").lower()
            if role == Role.TEACHER and "@" not in email:
                self.refuse(
                    table, row, sid, _("a teacher needs an e-mail address to sign in here.")
                )
                continue
            if role == Role.TEACHER and email in teacher_lines:
                # One e-mail signs in one account: a second teacher cannot share it.
                self.refuse(
                    table,
                    row,
                    sid,
                    _("the e-mail %(email)s is already a teacher's on line %(line)s.")
                    % {"email": email, "line": teacher_lines[email]},
                )
                continue
            if role == Role.TEACHER:
                teacher_lines[email] = row.line
            users[sid] = UserPlan(
                sourced_id=sid,
                role=role,
                name=name[:NAME_MAX_LENGTH],
                # A child's e-mail is never kept (nor read further than this row).
                email=email if role != Role.STUDENT else "",
                grades=row.get("grades"),
                line=row.line,
            )
        return users

    def read_enrolments(self, classes, users):
        """The accepted enrolments {sid: (class sid, user sid, role, primary, row)} and the
        sourcedIds of enrolments to delete."""
        enrolments, deleted = {}, []
        class_lines = {r.sourced_id for r in self.plan.refusals if r.file == "classes.csv"}
        user_lines = {r.sourced_id for r in self.plan.refusals if r.file == "users.csv"}
        for table, row, sid in self.rows("enrollments.csv"):
            if row.get("status") == TO_BE_DELETED:
                deleted.append(sid)
                continue
            role, class_sid, user_sid = (
                row.get("role"),
                row.get("classSourcedId"),
                row.get("userSourcedId"),
            )
            if role not in ROLES and not role.startswith("ext:"):
                self.refuse(
                    table,
                    row,
                    sid,
                    _("the role “%(role)s” is not a OneRoster role.") % {"role": role},
                )
                continue
            if role not in (Role.TEACHER, Role.STUDENT):
                self.plan.left_out += 1
                continue
            reasons = []
            if class_sid not in classes and class_sid not in self.links[Kind.CLASS]:
                reasons.append(
                    _("the class %(sid)s was refused (see classes.csv).") % {"sid": class_sid}
                    if class_sid in class_lines
                    else _("the class %(sid)s is not in classes.csv nor imported before.")
                    % {"sid": class_sid}
                )
            user = users.get(user_sid)
            link = self.links[Kind.TEACHER].get(user_sid) or self.links[Kind.STUDENT].get(user_sid)
            if user is None and link is None:
                reasons.append(
                    _("the user %(sid)s was refused (see users.csv).") % {"sid": user_sid}
                    if user_sid in user_lines
                    else _("the user %(sid)s is not in users.csv nor imported before.")
                    % {"sid": user_sid}
                )
            else:
                user_role = user.role if user is not None else link.kind
                if user is not None and not user.role:
                    user.role = user_role = role  # no role column: the enrolment tells
                    if role == Role.TEACHER and "@" not in user.email:
                        reasons.append(_("a teacher needs an e-mail address to sign in here."))
                if user_role != role:
                    reasons.append(
                        _("the user %(sid)s is a %(user_role)s, enrolled as a %(role)s.")
                        % {"sid": user_sid, "user_role": user_role, "role": role}
                    )
            if reasons:
                self.refuse(table, row, sid, " ".join(reasons))
                continue
            primary = row.get("primary").lower() == "true"
            enrolments[sid] = (class_sid, user_sid, role, primary, row)
        return enrolments, deleted

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
        self.class_teachers = {sid: [t for _p, t in sorted(ts)] for sid, ts in teachers.items()}
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
                self.refuse(
                    "classes.csv",
                    row,
                    class_sid,
                    _("the class has no teacher in enrollments.csv: a class here is a teacher's."),
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
            if user.name != link.imported_name:
                user.new_name = source_name_to_take(
                    incoming=user.name, imported=link.imported_name, current=link.user.display_name
                )
                if user.new_name is not None:
                    self.plan.updated.append(
                        Change(kind, sid, user.name, _("renamed from %(old)s") % {"old": link.user})
                    )
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
