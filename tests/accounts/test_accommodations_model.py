"""A child's accommodations: none set reads as the defaults; each allowance has its factor."""

import pytest

from accounts.models import Accommodations, TimeAllowance, accommodations_of
from tests.factories import make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db


def test_a_child_with_nothing_set_has_the_defaults_and_nothing_is_saved():
    child = make_student(make_class(make_teacher()), "Ana")
    needs = accommodations_of(child)
    assert (needs.time_factor, needs.calm_table, needs.public_name, needs.any) == (
        1.0,
        False,
        "full",
        False,
    )
    assert not Accommodations.objects.exists()


@pytest.mark.parametrize(
    ("allowance", "factor"),
    [("standard", 1.0), ("x1.5", 1.5), ("x2", 2.0), ("none", None)],
)
def test_each_time_allowance_has_its_factor(allowance, factor):
    child = make_student(make_class(make_teacher()), "Ana")
    Accommodations.objects.create(student=child, time=TimeAllowance(allowance))
    child.refresh_from_db()
    assert accommodations_of(child).time_factor == factor
    assert accommodations_of(child).any is (allowance != "standard")
