"""What live play tells the layers above it, without knowing them (games never imports classroom).

(What the layers write in a move's own transaction is not news: games.hooks.)
``match_changed`` is sent after the commit, with the new version, for live displays. A server sends
it for every move on its event loop (``asend``): a receiver that runs for every move should be a
coroutine, or each move costs a thread.
``play_page_links`` is sent when a play page is rendered: a receiver returns where the person may
go once the game is over (``[{"label": ..., "url": ..., "post": bool}]``, the most likely first;
``post`` makes it a form's button, for a step that creates something), since only
the layers above know the lesson or the homework a match belongs to.
``play_page_follow`` is sent when a play page is rendered too: a receiver may return a socket the
page should also listen to (``{"socket": "/ws/...", ...}``), whose ``seated`` news ("go to this
match now": ``{"type": "seated", "play_url": ...}``) the page follows by itself, so a layer that
moves people between matches (a lesson's next round) takes their screens along.
``play_page_room_names`` is sent when a page of a match is rendered for someone with no seat at it
(the teacher's Watch view, on the class's big screen): a receiver may return how that room names
children ("full", "first" or "initials": a lesson's choice for its projector). The names others see
follow it as well as each child's own setting (accounts.public_names), the stricter winning.
"""

from django.dispatch import Signal

# sender=None; kwargs: match_id, version, events, finished (this version ended the game),
# actor_seat (the seat that moved, None for a timer), on_server_loop (sent on a server's event loop,
# where news of many moves can be gathered; False from a worker or a shell, where each send runs
# on a loop of its own); one send per new version, in order
match_changed = Signal()
# sender=None; kwargs: match_id, user (the page's reader); returns a list of {"label", "url"} and
# optionally "post"
play_page_links = Signal()
# sender=None; kwargs: match_id, user; returns None or {"socket": path, **what the page may use}
play_page_follow = Signal()
# sender=None; kwargs: match_id, user; returns None or "full", "first" or "initials"
play_page_room_names = Signal()
