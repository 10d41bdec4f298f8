"""Writes OneRoster 1.2 CSV zips the way districts' systems do, for the tests and the benchmark:
the files and headers of the OneRoster 1.2 CSV binding (users.csv without a role: each user's
roles are rows of roles.csv; the 1.2 manifest's list of files; userProfiles.csv and the 1.2
demographics.csv beside the files the platform reads), a UTF-8 byte-order mark, CRLF line ends,
fields quoted only when they hold a comma, a quote or a line break, columns in an order of the
writer's own, and extension columns (``metadata.*``).

    users = [{"sourcedId": "u1", "role": "student", "givenName": "Ana", ...}]
    zip_bytes = OneRosterZip().add("users.csv", users).build()

A user's row may carry ``role`` (and ``orgSourcedIds``), as the 1.1 layout had them in users.csv:
in a 1.2 zip they are written as the user's primary role in roles.csv, of the same mode (bulk or
delta), unless the zip is given its own roles.csv or the file is added with ``roles=False``.
``OneRosterZip(version="1.1")`` writes the 1.1 layout (the role in users.csv, no roles.csv).
"""

import csv
import io
import random
import zipfile
from dataclasses import dataclass, field

# The columns of each file, in the standard's order (OneRoster 1.2 CSV binding).
COLUMNS = {
    "orgs.csv": ["sourcedId", "status", "dateLastModified", "name", "type", "identifier",
                 "parentSourcedId"],
    "academicSessions.csv": ["sourcedId", "status", "dateLastModified", "title", "type",
                             "startDate", "endDate", "parentSourcedId", "schoolYear"],
    "courses.csv": ["sourcedId", "status", "dateLastModified", "schoolYearSourcedId", "title",
                    "courseCode", "grades", "orgSourcedId", "subjects", "subjectCodes"],
    "classes.csv": ["sourcedId", "status", "dateLastModified", "title", "grades",
                    "courseSourcedId", "classCode", "classType", "location", "schoolSourcedId",
                    "termSourcedIds", "subjects", "subjectCodes", "periods"],
    "users.csv": ["sourcedId", "status", "dateLastModified", "enabledUser", "username", "userIds",
                  "givenName", "familyName", "middleName", "identifier", "email", "sms", "phone",
                  "agentSourcedIds", "grades", "password", "userMasterIdentifier",
                  "resourceSourcedIds", "preferredGivenName", "preferredMiddleName",
                  "preferredFamilyName", "primaryOrgSourcedId", "pronouns"],
    "roles.csv": ["sourcedId", "status", "dateLastModified", "userSourcedId", "roleType", "role",
                  "beginDate", "endDate", "orgSourcedId", "userProfileSourcedId"],
    "enrollments.csv": ["sourcedId", "status", "dateLastModified", "classSourcedId",
                        "schoolSourcedId", "userSourcedId", "role", "primary", "beginDate",
                        "endDate"],
    "demographics.csv": ["sourcedId", "status", "dateLastModified", "birthDate", "sex",
                         "americanIndianOrAlaskaNative", "asian", "blackOrAfricanAmerican",
                         "nativeHawaiianOrOtherPacificIslander", "white",
                         "demographicRaceTwoOrMoreRaces", "hispanicOrLatinoEthnicity",
                         "countryOfBirthCode", "stateOfBirthAbbreviation", "cityOfBirth",
                         "publicSchoolResidenceStatus"],
    "userProfiles.csv": ["sourcedId", "status", "dateLastModified", "userSourcedId",
                         "profileType", "vendorId", "applicationId", "description",
                         "credentialType", "username", "password"],
}  # fmt: skip
# OneRoster 1.1's users.csv: the role and the orgs in the user's own row.
USERS_1_1 = ["sourcedId", "status", "dateLastModified", "enabledUser", "orgSourcedIds", "role",
             "username", "userIds", "givenName", "familyName", "middleName", "identifier", "email",
             "sms", "phone", "agentSourcedIds", "grades", "password"]  # fmt: skip
# The files manifest.csv names, each bulk, delta or absent.
MANIFEST_FILES = {
    "1.2": ["academicSessions", "categories", "classes", "classResources", "courses",
            "courseResources", "demographics", "enrollments", "lineItemLearningObjectiveIds",
            "lineItems", "lineItemScoreScales", "orgs", "resources", "resultLearningObjectiveIds",
            "results", "resultScoreScales", "roles", "scoreScales", "userProfiles",
            "userResources", "users"],
    "1.1": ["academicSessions", "categories", "classes", "classResources", "courses",
            "courseResources", "demographics", "enrollments", "lineItems", "orgs", "resources",
            "results", "users"],
}  # fmt: skip
METADATA = ["metadata.district.localCode", "metadata.notes"]
MODIFIED = "2026-09-01T08:00:00.000Z"


@dataclass
class OneRosterZip:
    version: str = "1.2"
    files: dict = field(default_factory=dict)  # name: (mode, columns, rows)
    extra: dict = field(default_factory=dict)  # name: raw bytes, not in the manifest's files
    no_roles: set = field(default_factory=set)  # files whose rows' roles are not written out

    def add(self, name, rows, mode="bulk", columns=None, metadata=True, roles=True):
        """``rows``: dicts by column (a missing column is written empty). ``columns``: the
        header to write (default: the standard's, with ``metadata.*`` extension columns).
        ``roles=False``: a 1.2 users.csv whose rows' ``role`` makes no roles.csv."""
        if columns is None:
            columns = list(
                USERS_1_1 if (name, self.version) == ("users.csv", "1.1") else COLUMNS[name]
            )
            if metadata:
                columns += METADATA
        if mode == "delta":
            for row in rows:
                row.setdefault("status", "active")
                row.setdefault("dateLastModified", MODIFIED)
        self.files[name] = (mode, columns, rows)
        if not roles:
            self.no_roles.add(name)
        return self

    def written_files(self) -> dict:
        """The files to write: in 1.2, users' roles go to roles.csv (unless it is given)."""
        files = dict(self.files)
        if self.version == "1.1" or "users.csv" not in files or "roles.csv" in files:
            return files
        mode, _columns, rows = files["users.csv"]
        for row in rows:
            if "orgSourcedIds" in row:
                row.setdefault("primaryOrgSourcedId", row["orgSourcedIds"].split(",")[0])
        if "users.csv" in self.no_roles:
            return files
        roles = []
        for number, row in enumerate(rows, 1):
            if not row.get("role"):
                continue
            roles.append(
                {"sourcedId": f"role-{number}-{row['sourcedId']}",
                 "status": row.get("status", ""),
                 "dateLastModified": row.get("dateLastModified", ""),
                 "userSourcedId": row["sourcedId"], "roleType": "primary", "role": row["role"],
                 "orgSourcedId": row.get("primaryOrgSourcedId", "")}
            )  # fmt: skip
        files["roles.csv"] = (mode, COLUMNS["roles.csv"] + METADATA, roles)
        return files

    def build(self, *, bom=True, crlf=True, shuffle_columns=True, seed=7, folder="") -> bytes:
        """``folder``: the files inside it, and beside them the copies of their metadata a Mac
        adds to a zip it makes (``__MACOSX/<folder>/._<file>``)."""
        shuffler = random.Random(seed)
        files = self.written_files()
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as folded:
            archive = _InFolder(folded, folder)
            manifest = [
                ["propertyName", "value"],
                ["manifest.version", "1.0"],
                ["oneroster.version", self.version],
            ]
            for name in MANIFEST_FILES[self.version]:
                mode = files.get(f"{name}.csv", ("absent",))[0]
                manifest.append([f"file.{name}", mode])
            manifest += [["source.systemName", "District SIS, Inc."], ["source.systemCode", ""]]
            archive.writestr("manifest.csv", _csv(manifest, bom, crlf))
            for name, (_mode, columns, rows) in files.items():
                header = list(columns)
                if shuffle_columns:
                    shuffler.shuffle(header)
                table = [header] + [[row.get(column, "") for column in header] for row in rows]
                archive.writestr(name, _csv(table, bom, crlf))
            for name, data in self.extra.items():
                archive.writestr(name, data)
        return buffer.getvalue()


@dataclass
class _InFolder:
    archive: zipfile.ZipFile
    folder: str

    def writestr(self, name: str, data) -> None:
        if not self.folder:
            self.archive.writestr(name, data)
            return
        self.archive.writestr(f"{self.folder}/{name}", data)
        self.archive.writestr(f"__MACOSX/{self.folder}/._{name}", b"\x00\x05\x16\x07Mac OS X")


def _csv(rows, bom: bool, crlf: bool) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n" if crlf else "\n").writerows(rows)
    return (("\ufeff" if bom else "") + out.getvalue()).encode()


def district(*, schools=1, classes=4, students_per_class=25, classes_per_student=1, seed=1):
    """A district's bulk zip: every class with one teacher and its children; each child in
    ``classes_per_student`` classes of their school. Returns the builder."""
    rng = random.Random(seed)
    orgs = [{"sourcedId": "district", "name": "Unified District", "type": "district"}]
    terms = [
        {
            "sourcedId": "term-2026",
            "title": "2026-2027",
            "type": "schoolYear",
            "startDate": "2026-08-20",
            "endDate": "2027-06-15",
            "schoolYear": "2027",
        }
    ]
    courses, class_rows, users, enrolments = [], [], [], []
    for school in range(schools):
        school_sid = f"school-{school}"
        orgs.append(
            {"sourcedId": school_sid, "name": f"School {school}", "type": "school",
             "parentSourcedId": "district"}
        )  # fmt: skip
        course_sid = f"course-{school}"
        courses.append({"sourcedId": course_sid, "title": "Math", "orgSourcedId": school_sid})
        school_classes = []
        for number in range(classes):
            class_sid = f"class-{school}-{number}"
            teacher_sid = f"teacher-{school}-{number}"
            school_classes.append(class_sid)
            class_rows.append(
                {"sourcedId": class_sid, "title": f"Math {number}, room {school}",
                 "courseSourcedId": course_sid, "classType": "scheduled",
                 "schoolSourcedId": school_sid, "termSourcedIds": "term-2026", "grades": "03"}
            )  # fmt: skip
            users.append(
                {"sourcedId": teacher_sid, "enabledUser": "true", "role": "teacher",
                 "orgSourcedIds": school_sid, "givenName": f"Teacher{number}",
                 "familyName": f"School{school}",
                 "email": f"teacher{school}.{number}@district.example",
                 "username": f"t{school}{number}"}
            )  # fmt: skip
            enrolments.append(
                {"sourcedId": f"enr-{teacher_sid}", "classSourcedId": class_sid,
                 "schoolSourcedId": school_sid, "userSourcedId": teacher_sid,
                 "role": "teacher", "primary": "true"}
            )  # fmt: skip
        for number in range(classes * students_per_class // classes_per_student):
            student_sid = f"student-{school}-{number}"
            users.append(
                {"sourcedId": student_sid, "enabledUser": "true", "role": "student",
                 "orgSourcedIds": school_sid, "givenName": f"Child{number}",
                 "familyName": f"Family{school}", "grades": "03",
                 "email": f"child{number}@kids.example"}
            )  # fmt: skip
            for class_sid in rng.sample(school_classes, classes_per_student):
                enrolments.append(
                    {"sourcedId": f"enr-{student_sid}-{class_sid}",
                     "classSourcedId": class_sid, "schoolSourcedId": f"school-{school}",
                     "userSourcedId": student_sid, "role": "student", "primary": "false"}
                )  # fmt: skip
    return (
        OneRosterZip()
        .add("orgs.csv", orgs)
        .add("academicSessions.csv", terms)
        .add("courses.csv", courses)
        .add("classes.csv", class_rows)
        .add("users.csv", users)
        .add("enrollments.csv", enrolments)
    )
