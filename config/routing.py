"""Every websocket path of the site; each app contributes its own."""

from accounts.routing import websocket_urlpatterns as accounts_sockets
from classroom.routing import websocket_urlpatterns as classroom_sockets
from games.routing import websocket_urlpatterns as games_sockets

websocket_urlpatterns = [*accounts_sockets, *games_sockets, *classroom_sockets]
