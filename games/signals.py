"""What live play tells the layers above it, without knowing them (games never imports classroom).

``attempts_recorded`` is sent inside the writing transaction, right after a change's Attempt rows
are saved, so a receiver's own writes (running totals, say) commit or roll back with the move.
``match_changed`` is sent after the commit, with the new version, for live displays.
"""

from django.dispatch import Signal

# sender=Match; kwargs: match (the Match row), attempts (list of saved Attempt rows)
attempts_recorded = Signal()
# sender=None; kwargs: match_id, version, events (one send per new version, in order)
match_changed = Signal()
