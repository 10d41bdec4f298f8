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


def public_name(name: str, accommodations) -> str | None:
    """How the class sees the child named ``name`` (projector, podium, leaderboards): the name,
    the initials, or None when the child is not shown there."""
    shown = accommodations.public_name
    if shown == PublicName.HIDDEN:
        return None
    if shown == PublicName.INITIALS:
        return initials(name)
    return name
