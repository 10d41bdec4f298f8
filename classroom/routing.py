"""Websocket paths of the teaching layer."""

from django.urls import path

from classroom.sessions.consumers import SessionMonitorConsumer, StudentConsumer

websocket_urlpatterns: list = [
    path("ws/student/", StudentConsumer.as_asgi()),
    path("ws/session/<int:session_id>/", SessionMonitorConsumer.as_asgi()),
]
