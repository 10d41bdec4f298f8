"""The sockets' plumbing that games and classroom both use, knowing neither: what every socket
shares (refusals, the flood limit, outages, closing when a sign-in ends: ``sockets``), reading a
client's message (``wire``), a socket's bounded database waits (``database_waits``), the watch of
the channel layer's groups (``layers``) and news sent after a commit from wherever it committed,
in order (``news``). What a match's news is, and its hub, are games' (games/delivery.py); who a
socket's user is, accounts' (accounts/socket_users.py)."""
