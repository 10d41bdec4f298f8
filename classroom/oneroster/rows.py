"""Reading an OneRoster zip's rows: each row of the files the import reads is judged on its own
and against the rows it names (a refused row is named with its file, line and reason), and who
each user is: their role (users.csv's own column in 1.1; in 1.2 their primary role in roles.csv;
else the role of their enrolments), whether they may sign in (``enabledUser``) and their name.

``planning._Planner`` reads the rows through ``RowReader`` and then compares what it accepted
with what earlier imports made."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from accounts.models import Role
from classroom.oneroster.models import OneRosterLink
from classroom.oneroster.reading import Mode, Row, Table

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
# Some systems capitalise the standard's words ("Student", "Active", "Primary"): read as its own.
ROLE_WORDS = {role.lower(): role for role in ROLES}
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
    enabled: bool = True  # enabledUser: whether they may sign in
    new_active: bool | None = None  # a child's account to (de)activate


def _person_name(row: Row) -> str:
    given = row.get("preferredGivenName") or row.get("preferredFirstName") or row.get("givenName")
    family = row.get("preferredFamilyName") or row.get("preferredLastName") or row.get("familyName")
    return " ".join(f"{given} {family}".split())


def _canonical_words(row: Row) -> None:
    """The row's status, role and role type in the standard's own spelling, whatever their
    capitals (an unknown role is left as written, for its refusal to quote)."""
    for column in ("status", "roleType"):
        if column in row.cells:
            row.cells[column] = row.cells[column].strip().lower()
    if "role" in row.cells:
        role = row.cells["role"].strip()
        row.cells["role"] = ROLE_WORDS.get(role.lower(), role)


class RowReader:
    """The reading half of ``planning._Planner``, which holds what it reads from and into:
    ``bundle``, ``plan``, ``links`` (what earlier imports made), ``usable`` (the files with
    their required columns), ``disabled`` and ``refused_teachers``."""

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
            _canonical_words(row)
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

    def user_roles(self) -> tuple[dict[str, str], dict[str, int]]:
        """Each user's role in roles.csv (1.2), the primary one first; and the users whose
        roles were all refused, with the line of the first."""
        roles: dict[str, str] = {}
        refused: dict[str, int] = {}
        rows = sorted(self.rows("roles.csv"), key=lambda item: item[1].get("roleType") != "primary")
        for table, row, sid in rows:
            if row.get("status") == TO_BE_DELETED:
                continue  # a role is not stored: nothing to undo
            user_sid, role = row.get("userSourcedId"), row.get("role")
            if role not in ROLES and not role.startswith("ext:"):
                self.refuse(
                    table,
                    row,
                    sid,
                    _("the role “%(role)s” is not a OneRoster role.") % {"role": role},
                )
                refused[user_sid] = min(refused.get(user_sid, row.line), row.line)
                continue
            roles.setdefault(user_sid, role)
        return roles, {sid: line for sid, line in refused.items() if sid not in roles}

    def enabled(self, table: Table, row: Row, sid: str) -> bool | None:
        """``enabledUser``: whether the user may sign in (empty: yes); None: refused."""
        value = row.get("enabledUser").lower()
        if value in ("", "true", "false"):
            return value != "false"
        self.refuse(
            table,
            row,
            sid,
            _("enabledUser is “%(value)s”, neither true nor false.")
            % {"value": row.get("enabledUser")},
        )
        return None

    def read_users(self) -> dict[str, UserPlan | None]:
        """Accepted users (None: a user to delete)."""
        from_roles, roles_refused = self.user_roles()
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
            enabled = self.enabled(table, row, sid)
            if enabled is None:
                continue
            link = self.links[Kind.TEACHER].get(sid) or self.links[Kind.STUDENT].get(sid)
            # 1.1 gives the role in users.csv, 1.2 in roles.csv; a delta may send neither for a
            # user imported before (their role here), nor for a new one (their enrolments').
            role = row.get("role") or from_roles.get(sid) or (link.kind if link else "")
            if not role and sid in roles_refused:
                self.refuse(
                    table,
                    row,
                    sid,
                    _("the user's role was refused (see roles.csv line %(line)s).")
                    % {"line": roles_refused[sid]},
                )
                continue
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
            if not enabled and not self.disabled_kept(table, row, sid, role, link):
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
                enabled=enabled,
            )
        return users

    def disabled_kept(self, table, row, sid, role, link) -> bool:
        """A user with ``enabledUser`` false: a child imported before is read (they may not
        sign in here until it is true again); a teacher imported before is kept as they are;
        a new user gets no account (a teacher's line is refused: their class would have no
        teacher; a child is left out, with their enrolments)."""
        if link is not None and link.kind == Kind.STUDENT:
            return True
        if link is not None:
            self.refuse(
                table,
                row,
                sid,
                _("the teacher is kept: a teacher's account is closed here, not by an import."),
            )
        elif role == Role.TEACHER:
            self.refuse(
                table,
                row,
                sid,
                _("enabledUser is false: no account is made for a teacher who may not sign in."),
            )
        else:
            self.disabled.add(sid)
            self.plan.left_out += 1
        return False

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
            if role not in (Role.TEACHER, Role.STUDENT) or user_sid in self.disabled:
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
                if role == Role.TEACHER:
                    self.refused_teachers.setdefault(class_sid, (user_sid, row.line))
                continue
            primary = row.get("primary").lower() == "true"
            enrolments[sid] = (class_sid, user_sid, role, primary, row)
        return enrolments, deleted
