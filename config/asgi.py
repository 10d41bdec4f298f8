"""ASGI entry point: HTTP goes to Django; websockets pass the origin check and the session
authentication before reaching a consumer."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # loads the apps before the routing imports models

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from accounts.socket_users import AuthMiddlewareStack  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from realtime.news import serving_here  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


async def application(scope, receive, send):
    # News committed in a sync thread of this server goes to this loop (games/delivery.py).
    serving_here()
    return await router(scope, receive, send)


# Everything loaded so far (Django, the apps, the engine's tables) lives as long as the process:
# frozen, full collections no longer walk it. And a server process allocates many short-lived
# objects per message; a higher first threshold makes collections rarer. Full collections had
# stopped every move in flight for 80-150 ms every 20 s or so under load.
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 100)
