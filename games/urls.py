from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("play/<int:match_id>/", views.play, name="play"),
    path("play/<int:match_id>/watch/", views.watch, name="watch"),
]
