"""The standings the session's screens show, from the monitor's table and student rows: the
teacher's leaderboard, the class's (the projector: names as set there, the children not shown
left out), the teams (docs/rules/teams.md) and the end-of-session summary. Pure functions of
those rows: no query."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from classroom.models import ClassSession, TeamMode
from classroom.progress.numbers import judged_percent


def public_leaderboard(
    leaderboard: list[dict], public_names: dict[int, str | None], *, top: int = 0
) -> list[dict]:
    """The leaderboard as the class sees it: names as set for the projector, the children not
    shown there left out and the places counted again without them (no gap gives them away).
    Nobody is ranked in public with no points, and with ``top`` (0: all) only the first ``top``
    places are shown (children sharing the last of them all are)."""
    rows = [
        {**row, "name": public_names.get(row["id"]) or ""}
        for row in leaderboard
        if public_names.get(row["id"]) is not None and row["points"] > 0
    ]
    for index, row in enumerate(rows):
        ahead = rows[index - 1] if index else None
        row["rank"] = ahead["rank"] if ahead and ahead["points"] == row["points"] else index + 1
        row["rank_label"] = place_label(row["rank"])
    if top:
        rows = [row for row in rows if row["rank"] <= top]
    return rows


# What the teacher's glance at a table says that the class must not read.
_TEACHERS_ONLY = frozenset({"needs_help"})


def public_tables(table_rows: list[dict], public_names: dict[int, str | None]) -> list[dict]:
    """The tables as the class sees them: each child by their projector name; a child not shown
    there is not listed."""
    public = []
    for table in table_rows:
        seats = []
        for seat in table["seats"]:
            if seat["student_id"] is None:
                seats.append(seat)
                continue
            name = public_names.get(seat["student_id"], seat["name"])
            if name is not None:
                seats.append({**seat, "name": name})
        shown = {key: value for key, value in table.items() if key not in _TEACHERS_ONLY}
        public.append({**shown, "seats": seats})
    return public


def leaderboard(students: list[dict], table_rows: list[dict]) -> list[dict]:
    """Every seated student by the points of their game, as the tables count them (a classroom
    game's leaderboard ranks what the game scores, not the answers behind it); equal points share
    a place, right answers then order them. Bots are not on it."""
    seated = {
        seat["student_id"]: (seat["score"], table["label"])
        for table in table_rows
        for seat in table["seats"]
        if seat["student_id"] is not None
    }
    rows = [
        {
            "id": s["id"],
            "name": s["name"],
            "points": seated[s["id"]][0] or 0,
            "table": seated[s["id"]][1],
            "correct": s["correct"],
            "attempts": s["attempts"],
        }
        for s in students
        if s["id"] in seated
    ]
    rows.sort(key=lambda row: (-row["points"], -row["correct"], row["name"].lower()))
    for index, row in enumerate(rows):
        ahead = rows[index - 1] if index else None
        row["rank"] = ahead["rank"] if ahead and ahead["points"] == row["points"] else index + 1
        row["rank_label"] = place_label(row["rank"])
    return rows


def summary(session: ClassSession, students: list[dict], table_rows: list[dict]) -> dict:
    """What the projector shows at the end of a session."""
    attempts = sum(s["attempts"] for s in students)
    correct = sum(s["correct"] for s in students)
    minutes = None
    if session.started_at and session.ended_at:
        minutes = max(1, round((session.ended_at - session.started_at).total_seconds() / 60))
    return {
        "students": sum(1 for t in table_rows for seat in t["seats"] if seat["student_id"]),
        "tables": len(table_rows),
        "attempts": attempts,
        "correct": correct,
        "percent": judged_percent(correct, attempts),
        "minutes": minutes,
    }


def teams(team_mode: str, table_rows: list[dict]) -> dict | None:
    """How the teams stand (docs/rules/teams.md), or None when each child plays for themselves.
    A team's points are its children's points as their game counts them; bots never add to a
    team of children. Teams of different sizes compare by their points per player (T3, T4): a
    table of four children would otherwise beat a table of three by construction, and a class of
    25 the three bots beside it. ``tables``: each table a team, ranked by points per child, equal
    shares sharing a place and a table with no points yet given none. ``class``: the children's
    points per child against the bots' points per bot, in all and at each table."""
    if team_mode == TeamMode.TABLES:
        rows = []
        for table in table_rows:
            children = [seat for seat in table["seats"] if seat["student_id"] is not None]
            if not children:
                continue
            points = sum(seat["score"] or 0 for seat in children)
            rows.append(
                {
                    "number": table["number"],
                    "name": table["label"],
                    "points": points,
                    "players": len(children),
                    **_per_player(points, len(children)),
                }
            )
        rows.sort(key=lambda row: (-row["share"], row["number"]))
        for index, row in enumerate(rows):
            ahead = rows[index - 1] if index else None
            if row["points"] <= 0:
                row["rank"], row["rank_label"] = None, ""
                continue
            row["rank"] = ahead["rank"] if ahead and ahead["share"] == row["share"] else index + 1
            row["rank_label"] = place_label(row["rank"])
        return {"mode": team_mode, "teams": rows}
    if team_mode == TeamMode.CLASS:
        tables = []
        for table in table_rows:
            children = [seat for seat in table["seats"] if seat["student_id"] is not None]
            if not children:
                continue
            tables.append(
                {
                    "number": table["number"],
                    "name": table["label"],
                    "children": sum(seat["score"] or 0 for seat in children),
                    "bots": sum(seat["score"] or 0 for seat in table["seats"] if seat["bot"]),
                    "child_seats": len(children),
                    "bot_seats": sum(1 for seat in table["seats"] if seat["bot"]),
                }
            )
        children = sum(row["children"] for row in tables)
        bots = sum(row["bots"] for row in tables)
        child_seats = sum(row["child_seats"] for row in tables)
        bot_seats = sum(row["bot_seats"] for row in tables)
        ours = _per_player(children, child_seats)
        theirs = _per_player(bots, bot_seats)
        if not bot_seats:
            ahead = "no_bots"
        elif ours["share"] != theirs["share"]:
            ahead = "children" if ours["share"] > theirs["share"] else "bots"
        else:
            ahead = "level"
        return {
            "mode": team_mode,
            "children": children,
            "bots": bots,
            "child_seats": child_seats,
            "bot_seats": bot_seats,
            "children_per_player": ours["per_player"],
            "bots_per_player": theirs["per_player"],
            "ahead": ahead,
            "tables": tables,
        }
    return None


def _per_player(points: int, players: int) -> dict:
    """A team's points per player: ``share`` exact (it ranks, and equal shares tie),
    ``per_player`` to one decimal, as the projector shows it, and ``per_player_count`` the whole
    number that picks the words' plural form ("1 point", "1.5 points": English and Spanish use
    the plural for every number but exactly 1; gettext takes whole numbers only)."""
    share = Fraction(points, players) if players else Fraction(0)
    per_player = round(float(share), 1)
    return {
        "share": share,
        "per_player": per_player,
        "per_player_count": int(per_player) if per_player.is_integer() else 2,
    }


def place_label(place: int) -> str:
    """ "1st", "2nd", … as the play page's podium writes them."""
    if place == 1:
        return _("1st")
    if place == 2:
        return _("2nd")
    if place == 3:
        return _("3rd")
    return _("%(place)sth") % {"place": place}
