from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = _("Classroom")

    def ready(self):
        # Receivers of live play's signals (games never imports classroom; classroom listens).
        from classroom.next_steps import play_page_links as links_after_the_game
        from classroom.progress import rollup, tasks  # noqa: F401  (tasks: for the worker)
        from classroom.sessions import figures, receivers  # noqa: F401
        from games.signals import attempts_recorded, play_page_links

        attempts_recorded.connect(rollup.record_attempts, dispatch_uid="classroom.progress.rollup")
        attempts_recorded.connect(
            figures.record_attempts, dispatch_uid="classroom.sessions.figures"
        )
        play_page_links.connect(links_after_the_game, dispatch_uid="classroom.next_steps")
