"""A child's accommodations (accounts.Accommodations) as the teaching layer shows them: the short
badges on the teacher's figures (the live monitor, the progress pages), so a teacher reads a
child's speed knowing it, and the name the class sees of a child (projector, podium). Children
never see the badges; the child's own screens and the teacher's pages keep the full name."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import PublicName, TimeAllowance, accommodations_of


def badges(accommodations) -> list[str]:
    """Short words for what is set ("×2 time", "calm table"...); empty when nothing is."""
    shown = []
    time = accommodations.time
    if time == TimeAllowance.HALF_AGAIN:
        shown.append(_("×1.5 time"))
    elif time == TimeAllowance.DOUBLE:
        shown.append(_("×2 time"))
    elif time == TimeAllowance.NO_CLOCK:
        shown.append(_("no clock"))
    if accommodations.calm_table:
        shown.append(_("calm table"))
    if accommodations.public_name == PublicName.INITIALS:
        shown.append(_("initials on the projector"))
    elif accommodations.public_name == PublicName.HIDDEN:
        shown.append(_("not on the projector"))
    if accommodations.read_aloud:
        shown.append(_("read aloud"))
    if accommodations.dots:
        shown.append(_("dots"))
    return shown


def badges_of(student) -> list[str]:
    """``badges`` of a student whose accommodations were read with them (select_related)."""
    return badges(accommodations_of(student))


def initials(name: str) -> str:
    """ "Ana Ruiz" -> "A. R."; "Ana" -> "A."."""
    return " ".join(f"{word[0].upper()}." for word in name.split() if word)


def first_name(name: str) -> str:
    """ "Ana Ruiz" -> "Ana"; "Ana" -> "Ana"."""
    words = name.split()
    return words[0] if words else name


# From the most to the least a name says: the stricter of the session's and the child's wins.
_STRICTNESS = ("full", "first", PublicName.INITIALS, PublicName.HIDDEN)


def public_name(name: str, accommodations, room: str = "full") -> str | None:
    """How the class sees the child named ``name`` (projector, podium, leaderboards): the name,
    the first name, the initials, or None when the child is not shown there. ``room`` is the
    session's choice for every child (ClassSession.projector_names: full, first, initials); the
    child's own choice (accounts.Accommodations.public_name) wins when it says less."""
    own = accommodations.public_name
    shown = max(
        own if own in _STRICTNESS else "full",
        room if room in _STRICTNESS else "full",
        key=_STRICTNESS.index,
    )
    if shown == PublicName.HIDDEN:
        return None
    if shown == PublicName.INITIALS:
        return initials(name)
    if shown == "first":
        return first_name(name)
    return name


def told_apart(shown: dict, full: dict) -> dict:
    """Public names (id -> name or None) where children shown by the same first name are told
    apart: by the initial of their next name ("Ana R.", "Ana M."), or by their full name when
    even that is shared. Only the names cut to a first name (``full``: id -> the full name) are
    lengthened."""
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
