"""A child's accommodations (accounts.Accommodations) as the teaching layer shows them: the short
badges on the teacher's figures (the live monitor, the progress pages), so a teacher reads a
child's speed knowing it. Children never see the badges. The name others see of a child is
accounts.public_names' rule, shared with live play."""

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
