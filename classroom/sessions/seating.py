"""The seating plan of a class session: which child sits at which table and seat. The lobby's
deal (``deal``: the fewest tables, their sizes within one of each other, optionally by level or
with the children who need a calm table together), a late arrival's seat (``place``), and the
tables renumbered when some empty (``drop_empty_tables``). The writes in
classroom.sessions.services call these under the session's row lock."""

from __future__ import annotations

import math
import statistics

from django.db.models import Count, Max, Q

from accounts.models import Accommodations, TimeAllowance
from classroom.models import ClassSession, SessionPlace, SessionTable
from classroom.progress.levels import levels_in_game


def deal(session: ClassSession, student_ids: list[int]) -> list[int]:
    """New tables after the existing ones: the fewest that seat everyone
    (``ceil(children / table size)``), their sizes within one of each other (seven students at
    tables of four: four and three, not four and three bots beside one child), dealt
    round-robin. With ``seat_by_level`` the children are ordered by level (``_by_level``) and
    dealt in runs, not round-robin: the first tables take the strongest children, the last ones
    the weakest. With ``calm_together`` the same tables are dealt, and the children who need a
    calm table sit together at the fewest of them (``_calm_tables``), each filled before the
    next; the others take the other tables, and the seats the calm children leave free at
    theirs (that table plays calm: any child needing calm makes a calm table). Seating them
    together costs the class no table and no bot. Returns the new tables' numbers."""
    if not student_ids:
        return []
    count = math.ceil(len(student_ids) / session.table_size)
    base, extra = divmod(len(student_ids), count)
    sizes = [base + 1] * extra + [base] * (count - extra)
    calm = _needing_calm(student_ids) if session.calm_together else set()
    others = [sid for sid in student_ids if sid not in calm]
    needing = [sid for sid in student_ids if sid in calm]
    if session.seat_by_level:
        others, needing = _by_level(session, others), _by_level(session, needing)
    calm_sizes = _calm_tables(sizes, len(needing))
    other_sizes = list(sizes)
    for size in calm_sizes:
        other_sizes.remove(size)
    # The others who fill the calm tables' free seats: the last of them (the last to join, or
    # with seating by level the weakest, whose tables come last too).
    own = len(others) - (sum(calm_sizes) - len(needing))
    fill = _runs if session.seat_by_level else _round_robin
    first = (session.tables.aggregate(last=Max("number"))["last"] or 0) + 1
    tables = [SessionTable.objects.create(session=session, number=first + i) for i in range(count)]
    seating = list(zip(fill(other_sizes), others[:own], strict=True))
    seating += [
        ((len(other_sizes) + table, seat), sid)
        for (table, seat), sid in zip(_runs(calm_sizes), needing + others[own:], strict=True)
    ]
    SessionPlace.objects.bulk_create(
        SessionPlace(table=tables[table], seat=seat, student_id=student_id)
        for (table, seat), student_id in seating
    )
    return [table.number for table in tables]


def _calm_tables(sizes: list[int], calm: int) -> list[int]:
    """The sizes of the tables, among ``sizes`` (within one of each other), that seat ``calm``
    children together: as few as will hold them, and of those the smallest, so that as few other
    children as possible share them. Bigger first, as the deal fills them."""
    if not calm:
        return []
    small, big = min(sizes), max(sizes)
    smalls, bigs = sizes.count(small), len(sizes) - sizes.count(small)
    if small == big:
        return [small] * math.ceil(calm / small)
    for count in range(1, len(sizes) + 1):
        # As many small tables as still hold everyone, the rest big.
        for small_count in range(min(count, smalls), -1, -1):
            big_count = count - small_count
            if big_count <= bigs and small_count * small + big_count * big >= calm:
                return [big] * big_count + [small] * small_count
    raise ValueError("more children who need a calm table than seats")


def _round_robin(sizes: list[int]) -> list[tuple[int, int]]:
    """(table index, seat) of each child in turn: one to each table with a free seat, and round
    again (``sizes`` bigger first, so every round after the first ones skips the same last
    tables)."""
    return [
        (table, seat)
        for seat in range(max(sizes, default=0))
        for table, size in enumerate(sizes)
        if seat < size
    ]


def _runs(sizes: list[int]) -> list[tuple[int, int]]:
    """(table index, seat) of each child in turn: the first table filled before the next, so
    neighbours in the order sit together."""
    return [(table, seat) for table, size in enumerate(sizes) for seat in range(size)]


def _by_level(session: ClassSession, student_ids: list[int]) -> list[int]:
    """The children strongest first by their level at the session's game
    (``classroom.progress.levels.levels_in_game``); children with no answers on its skills yet
    come last, beside the weakest (their level is "not started"); ties keep the joining order."""
    levels = levels_in_game(student_ids=student_ids, game=session.game)

    def strongest_first(sid: int) -> tuple:
        level = levels.get(sid)
        return (1, 0.0, 0.0) if level is None else (0, -level.mean_level, -level.accuracy)

    return sorted(student_ids, key=strongest_first)


def _needing_calm(student_ids) -> set[int]:
    """The children among ``student_ids`` who need a calm table: one set for them, or no clock."""
    return set(
        Accommodations.objects.filter(student_id__in=list(student_ids))
        .filter(Q(calm_table=True) | Q(time=TimeAllowance.NO_CLOCK))
        .values_list("student_id", flat=True)
    )


def place(session: ClassSession, student_id: int) -> None:
    """The free seat of the emptiest table, or a new table when every table is full. With
    ``calm_together``, a child who needs a calm table takes a free seat at a table where a child
    needing calm sits (else a new table of their own); another child a free seat at a table
    without one, else at a calm table (it plays calm for them, and no table is opened for one
    child beside bots). With ``seat_by_level``, among those the free table whose children's
    level is nearest the child's."""
    every_table = list(session.tables.annotate(taken=Count("places")).order_by("taken", "number"))
    choices = [every_table]
    places = []
    if (session.calm_together or session.seat_by_level) and every_table:
        places = list(
            SessionPlace.objects.filter(table__session=session).values_list(
                "table_id", "student_id"
            )
        )
    if session.calm_together and every_table:
        calm = _needing_calm([student_id, *(seated for _table, seated in places)])
        calm_tables = {table_id for table_id, seated in places if seated in calm}
        alike = [t for t in every_table if (t.pk in calm_tables) == (student_id in calm)]
        choices = [alike]
        if student_id not in calm:
            choices.append([t for t in every_table if t.pk in calm_tables])
    table = None
    for tables in choices:
        free = [t for t in tables if t.taken < session.table_size]
        if session.seat_by_level and len(free) > 1:
            free = _nearest_level_first(session, student_id, free, places)
        table = next(iter(free), None)
        if table is not None:
            break
    if table is None:
        last = max((t.number for t in every_table), default=0)
        table = SessionTable.objects.create(session=session, number=last + 1)
        seat = 0
    else:
        taken = set(table.places.values_list("seat", flat=True))
        seat = min(set(range(session.table_size)) - taken)
    SessionPlace.objects.create(table=table, seat=seat, student_id=student_id)


def _nearest_level_first(session, student_id, tables, places) -> list[SessionTable]:
    """``tables`` (emptiest first) by how near their children's mean level at the session's game
    is to the child's, nearest first (``_by_level``'s level; no answers yet counts as 0, not
    started, as the deal seats such children beside the weakest); ties keep the emptiest first."""
    levels = levels_in_game(
        student_ids=[student_id, *(seated for _table, seated in places)], game=session.game
    )

    def level(sid: int) -> float:
        found = levels.get(sid)
        return 0.0 if found is None else found.mean_level

    by_table: dict[int, list[float]] = {}
    for table_id, seated in places:
        by_table.setdefault(table_id, []).append(level(seated))
    mine = level(student_id)

    def distance(table: SessionTable) -> float:
        children = by_table.get(table.pk)
        return abs(statistics.fmean(children) - mine) if children else math.inf

    return sorted(tables, key=distance)


def drop_empty_tables(session: ClassSession) -> None:
    """Remove tables nobody sits at and number the rest 1, 2, 3… again, in their order."""
    session.tables.filter(places__isnull=True).delete()
    tables = list(session.tables.order_by("number"))
    if all(table.number == i for i, table in enumerate(tables, start=1)):
        return
    # Two passes: the unique (session, number) index must hold after every row's update.
    offset = len(tables) + 1000
    for table in tables:
        table.number += offset
    SessionTable.objects.bulk_update(tables, ["number"])
    for i, table in enumerate(tables, start=1):
        table.number = i
    SessionTable.objects.bulk_update(tables, ["number"])
