from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

import engine
from accounts import devices, student_sign_in, throttle
from accounts.permissions import student_required, teacher_required
from classroom import selectors, services
from classroom.bots import bot_name
from classroom.forms import (
    ClassCodeForm,
    ClassroomCreateForm,
    MatchCreateForm,
    StudentSecretForm,
    TeacherTimeZoneForm,
    VariantPickForm,
    parse_variant,
    picture_choices,
)
from classroom.homework import selectors as homework_selectors
from classroom.sessions import selectors as session_selectors
from games import catalog
from games import selectors as game_selectors
from games.models import Match
from games.services import MatchError, SeatSpec, match_create


@teacher_required
@require_http_methods(["GET", "POST"])
def teacher_settings(request):
    teacher = request.user
    current = teacher.time_zone or settings.TIME_ZONE
    form = TeacherTimeZoneForm(
        request.POST or None, initial={"time_zone": current, "digits": teacher.digits}
    )
    if request.method == "POST" and form.is_valid():
        chosen_digits = form.cleaned_data["digits"] or teacher.digits
        if chosen_digits != teacher.digits:
            services.teacher_digits_set(teacher=teacher, digits=chosen_digits)
            messages.success(request, _("Your pages in Arabic now show the digits you chose."))
        chosen = form.cleaned_data["time_zone"]
        if chosen != current or not teacher.time_zone:
            recounted = services.teacher_time_zone_set(teacher=teacher, time_zone=chosen)
            text = _("Days are now counted in %(zone)s.") % {"zone": chosen}
            if recounted:
                text += " " + _("Your students' figures are being counted again in it.")
            messages.success(request, text)
        return redirect("classroom:teacher_settings")
    return render(
        request,
        "accounts/form_page.html",
        {"form": form, "title": _("Your settings")},
    )


@teacher_required
def teacher_home(request):
    return render(
        request,
        "classroom/teacher_home.html",
        {
            "classrooms": selectors.teacher_classrooms(teacher=request.user),
            "form": ClassroomCreateForm(),
            "recent_games": selectors.recent_games(teacher=request.user),
        },
    )


def _titled(matches):
    """A child's games as their home page names them: the table's label in the child's language
    ("Table 2") over the game and variant in a child's words, or the game over its variant (a
    variant named like its game, "SUM", is not said twice)."""
    matches = list(matches)
    for match in matches:
        label = match.shown_label
        match.heading = label or catalog.game_title(match.game)
        match.title = (
            catalog.game_and_variant_title(match.game, match.variant, child=True)
            if label
            else catalog.child_variant_title(match.game, match.variant)
        )
    return matches


def _same_table(teacher, match_id: str, game: str, variant: str) -> dict | None:
    """The seats and options of one of the teacher's tables, to play it again."""
    match = (
        Match.objects.filter(pk=match_id, created_by=teacher, game=game, variant=variant)
        .prefetch_related("seats")
        .first()
        if match_id.isdigit()
        else None
    )
    if match is None:
        return None
    initial = {f"option_{name}": value for name, value in match.options.items()}
    for seat in match.seats.all():
        initial[f"seat_{seat.index}"] = (
            f"student:{seat.user_id}" if seat.user_id else f"bot:{seat.bot_level}"
        )
    return initial


@teacher_required
@require_http_methods(["GET", "POST"])
def match_new(request):
    """Start a table: first the game and variant (a plain GET form), then its options and seats."""
    classrooms = list(selectors.teacher_classrooms(teacher=request.user).order_by("name"))
    if not classrooms:
        messages.info(request, _("Create a class first: its students will sit at your tables."))
        return redirect("classroom:teacher_home")
    picked = parse_variant(request.GET.get("variant", ""))
    chosen = {str(c.pk): c for c in classrooms}.get(request.GET.get("classroom", ""))
    if chosen is None and len(classrooms) == 1:
        chosen = classrooms[0]
    if picked is None or chosen is None:
        pick_form = VariantPickForm(
            request.GET if "variant" in request.GET else None, classrooms=classrooms
        )
        if pick_form.is_bound:
            pick_form.is_valid()  # shows what is missing
        return render(request, "classroom/match_new.html", {"pick_form": pick_form})
    game, variant = picked
    form = MatchCreateForm(
        request.POST or None,
        classroom=chosen,
        game=game,
        variant=variant,
        initial=_same_table(request.user, request.GET.get("again", ""), game, variant),
    )
    if request.method == "POST" and form.is_valid():
        seats = []
        for kind, who in form.cleaned_data["seats"]:
            if kind == "student":
                seats.append(SeatSpec(name=str(who), user=who))
            else:
                number = sum(1 for seat in seats if seat.bot_level) + 1
                seats.append(SeatSpec(name=bot_name(number), bot_level=who))
        try:
            match = match_create(
                game=game,
                variant=variant,
                seats=seats,
                options=form.cleaned_data["options"],
                created_by=request.user,
                label=form.cleaned_data["label"],
            )
        except (engine.SetupError, MatchError) as error:
            form.add_error(
                None, _("This table cannot start: %(reason)s") % {"reason": error.message}
            )
        else:
            return redirect("games:watch", match_id=match.pk)
    return render(
        request,
        "classroom/match_new.html",
        {
            "form": form,
            "variant_value": f"{game}:{variant}",
            "classroom": chosen,
            "game_title": catalog.game_title(game),
            "variant_title": catalog.variant_title(game, variant),
            "spec": form.spec,
        },
    )


@teacher_required
@require_POST
def classroom_create(request):
    form = ClassroomCreateForm(request.POST)
    if form.is_valid():
        classroom = services.classroom_create(teacher=request.user, name=form.cleaned_data["name"])
        messages.success(
            request,
            _("“%(name)s” is ready. Its class code is %(code)s. Now add its students.")
            % {"name": classroom.name, "code": classroom.code},
        )
        # The class's own page, where its students are added: the next step of a new class.
        return redirect("classroom:roster_class", classroom_id=classroom.pk)
    messages.error(request, _("Give the class a name."))
    return redirect("classroom:teacher_home")


@student_required
def student_home(request):
    return render(
        request,
        "classroom/student_home.html",
        {
            "classrooms": selectors.student_classrooms(student=request.user),
            **homework_selectors.student_home_context(student=request.user),
            "open_sessions": session_selectors.student_open_sessions(student=request.user),
            "matches": _titled(
                match
                for match in game_selectors.user_matches(user=request.user)
                if match.is_playing
            ),
        },
    )


def _unknown_class_code(request):
    """A code that opens no class, tried in the address bar (the names page, a secret's page):
    counted and answered like one typed in the form."""
    student_sign_in.class_code_was_wrong(request)
    raise Http404


@require_http_methods(["GET", "POST"])
def student_login_code(request):
    """Step 1 of 3: the class code from the board."""
    form = ClassCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        classroom = selectors.classroom_by_code(code=form.cleaned_data["code"])
        if wait := student_sign_in.class_code_wait(request, classroom and classroom.pk):
            # While this address waits, every code but its classes' own gets this answer, right
            # or wrong: a child who mistyped reads at once what to do, and a guesser learns
            # nothing (docs/security.md, "The class-code step").
            form.add_error(
                "code",
                ngettext(
                    "No class opens with that code just now. Check it with your teacher, then "
                    "try again in %(seconds)s second.",
                    "No class opens with that code just now. Check it with your teacher, then "
                    "try again in %(seconds)s seconds.",
                    wait,
                )
                % {"seconds": wait},
            )
        elif classroom is not None:
            return redirect("classroom:student_login_roster", code=classroom.code)
        else:
            student_sign_in.class_code_was_wrong(request)
            form.add_error("code", _("No class has that code. Check it with your teacher."))
    return render(request, "classroom/student_login_code.html", {"form": form})


def student_login_roster(request, code):
    """Step 2 of 3: pick your name."""
    classroom = selectors.classroom_by_code(code=code)
    if wait := student_sign_in.class_code_wait(request, classroom and classroom.pk):
        return throttle.too_many_tries(request, wait)
    if classroom is None:
        _unknown_class_code(request)
    return render(
        request,
        "classroom/student_login_roster.html",
        {"classroom": classroom, "roster": selectors.classroom_roster(classroom=classroom)},
    )


@require_http_methods(["GET", "POST"])
def student_login_secret(request, code, student_id):
    """Step 3 of 3: the picture password or PIN."""
    classroom = selectors.classroom_by_code(code=code)
    if classroom is None:
        if wait := student_sign_in.class_code_wait(request, None):
            return throttle.too_many_tries(request, wait)
        _unknown_class_code(request)
    enrollment = get_object_or_404(
        selectors.classroom_roster(classroom=classroom), student_id=student_id
    )
    student = enrollment.student
    if not student.secret_kind:
        return render(
            request,
            "classroom/student_login_no_secret.html",
            {"classroom": classroom, "student": student},
        )
    form = StudentSecretForm(request.POST or None, secret_kind=student.secret_kind)
    if request.method == "POST" and form.is_valid():
        outcome = student_sign_in.student_sign_in(
            request, student=student, secret=form.cleaned_data["secret"], group=str(classroom.pk)
        )
        if outcome.wait_seconds:
            return throttle.too_many_tries(request, outcome.wait_seconds)
        if outcome.student is not None:
            login(request, student, backend="accounts.backends.StudentSecretBackend")
            response = redirect("classroom:student_home")
            devices.remember(request, response, student.pk)
            return response
        form.add_error(
            None,
            _("That PIN is not right. Try again.")
            if student.secret_kind == "pin"
            else _("Those pictures are not right. Try again."),
        )
    return render(
        request,
        "classroom/student_login_secret.html",
        {
            "classroom": classroom,
            "student": student,
            "form": form,
            "pictures": picture_choices(),
        },
    )
