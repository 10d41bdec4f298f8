"""Websocket paths of the teaching layer."""

websocket_urlpatterns: list = []
