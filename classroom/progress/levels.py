"""A child's level at a game, for seating children of similar level together
(classroom.sessions.seating) and for the bots of "each table's level" (classroom.sessions.opening):
read from their latest answers on the game's skills, as the mastery model reads them."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from classroom.progress.mastery import skill_mastery_by_student
from games.models import Attempt

# How far back a child's answers count for their level at a game: a school term.
GAME_LEVEL_DAYS = 120


@dataclass(frozen=True, order=True)
class GameLevel:
    """A child's level at a game's skills: the mean mastery level (0 not started .. 4 mastered)
    of the skills the class has answered in that game, then the share of right answers among
    their latest answers on them (ties of level). Higher is stronger."""

    mean_level: float
    accuracy: float


def levels_in_game(*, student_ids: list[int], game: str, now=None) -> dict[int, GameLevel]:
    """Each child's ``GameLevel`` at ``game``'s skills, from their latest answers on those skills
    in the last ``GAME_LEVEL_DAYS`` days (in any game: a fact is the same fact everywhere). The
    game's skills are those the class answered in it; a class that never played it is read on
    every skill. A child with no answers on them has no entry. Three queries for the class."""
    if not student_ids:
        return {}
    end = now or timezone.now()
    start = end - datetime.timedelta(days=GAME_LEVEL_DAYS)
    skills = set(
        Attempt.objects.filter(
            user_id__in=student_ids, game=game, created_at__gte=start, created_at__lt=end
        )
        .values_list("skill", flat=True)
        .distinct()
    )
    masteries = skill_mastery_by_student(student_ids=student_ids, start=start, end=end)
    levels: dict[int, GameLevel] = {}
    for student_id, by_skill in masteries.items():
        read = [m for skill, m in by_skill.items() if not skills or skill in skills]
        answers = sum(m.answers for m in read)
        if not answers:
            continue
        levels[student_id] = GameLevel(
            mean_level=sum(int(m.level) for m in read) / len(read),
            accuracy=sum(m.right for m in read) / answers,
        )
    return levels
