"""``student|accommodation_badges``: the short words for what a teacher set for a child, on the
teacher's figures (classroom.accommodations). Read the student with their accommodations
(``select_related("accommodations")``), or each child costs a query."""

from django import template

from classroom.accommodations import badges_of

register = template.Library()


@register.filter
def accommodation_badges(student) -> list[str]:
    return badges_of(student)
