"""The name others see of a child: the one rule for every place a child's name reaches another
child or a screen the class shares (a table-mate's play page, its score table and podium, the
teacher's big-screen Watch view, the projector's leaderboard, tables, lobby wall and podium).

Two choices meet here: the child's own (``Accommodations.public_name``: name, initials, not shown),
set by their teacher, and the room's, for a screen the whole class reads (a lesson's
``ClassSession.projector_names``: full names, first names, initials). The stricter wins. The
child's own screens and the teacher's own pages (roster, monitor, progress) use the full name.
It lives in accounts, beside the setting, so that live play (games) and the lessons (classroom)
apply the same rule without knowing each other."""

from __future__ import annotations

from accounts.models import PublicName

FULL = "full"
FIRST = "first"

# From the most to the least a name says: the stricter of the room's and the child's wins.
_STRICTNESS = (FULL, FIRST, PublicName.INITIALS, PublicName.HIDDEN)


def initials(name: str) -> str:
    """ "Ana Ruiz" -> "A. R."; "Ana" -> "A."."""
    return " ".join(f"{word[0].upper()}." for word in name.split() if word)


def first_name(name: str) -> str:
    """ "Ana Ruiz" -> "Ana"; "Ana" -> "Ana"."""
    words = name.split()
    return words[0] if words else name


def name_others_see(name: str, own: str = PublicName.FULL, room: str = FULL) -> str | None:
    """The name ``name`` as others see it: the name, the first name, the initials, or None when
    the child is not shown. ``own`` is the child's setting (``Accommodations.public_name``),
    ``room`` the choice for a shared screen (full, first, initials; "full" where there is none)."""
    shown = max(
        own if own in _STRICTNESS else FULL,
        room if room in _STRICTNESS else FULL,
        key=_STRICTNESS.index,
    )
    if shown == PublicName.HIDDEN:
        return None
    if shown == PublicName.INITIALS:
        return initials(name)
    if shown == FIRST:
        return first_name(name)
    return name


def told_apart(shown: dict, full: dict) -> dict:
    """Names others see (key -> name or None) where children shown by the same first name are
    told apart: by the initial of their next name ("Ana R.", "Ana M."), or by their full name
    when even that is shared. Only the names cut to a first name (``full``: key -> the full
    name) are lengthened."""
    cut = {
        key
        for key, name in shown.items()
        if name is not None and name != full[key] and name == first_name(full[key])
    }

    def clashing(names: dict) -> set:
        seen: dict[str, int] = {}
        for name in names.values():
            if name is not None:
                seen[name] = seen.get(name, 0) + 1
        return {key for key in cut if seen[names[key]] > 1}

    result = dict(shown)
    for key in clashing(result):
        rest = full[key].split()[1:]
        result[key] = f"{result[key]} {rest[0][0].upper()}." if rest else result[key]
    for key in clashing(result):
        result[key] = full[key]
    return result
