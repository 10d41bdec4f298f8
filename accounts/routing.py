from django.urls import path

from accounts.consumers import PingConsumer

websocket_urlpatterns = [path("ws/ping/", PingConsumer.as_asgi())]
