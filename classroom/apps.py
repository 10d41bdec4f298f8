from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = _("Classroom")

    def ready(self):
        # Receivers of live play's signals (games never imports classroom; classroom listens).
        from classroom.next_steps import play_page_follow as follow_the_lesson
        from classroom.next_steps import play_page_links as links_after_the_game
        from classroom.next_steps import play_page_room_names as names_in_the_room
        from classroom.progress import rollup, tasks  # noqa: F401  (tasks: for the worker)
        from classroom.sessions import figures, receivers  # noqa: F401
        from games.hooks import on_attempts_written
        from games.signals import play_page_follow, play_page_links, play_page_room_names

        on_attempts_written("classroom.progress.rollup", rollup.attempt_writes)
        on_attempts_written("classroom.sessions.figures", figures.attempt_writes)
        play_page_links.connect(links_after_the_game, dispatch_uid="classroom.next_steps")
        play_page_follow.connect(follow_the_lesson, dispatch_uid="classroom.next_steps.follow")
        play_page_room_names.connect(names_in_the_room, dispatch_uid="classroom.next_steps.names")
