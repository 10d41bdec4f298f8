"""What a link in a learning platform's course opens here (docs/lti.md, "Deep Linking"), as its
custom parameters say: a game with its variant and options (``game``, ``variant``,
``option_<name>``), or a homework or personal practice of the course's class (``assignment``).
This tool's deep-linking answer writes them; a launch reads them back here and checks them
before anything is written: a link that names a game, variant or option the engine does not
have, or another class's homework, is refused (the platform's teachers can edit these
parameters). A link with none of them opens the class (a teacher) or the child's home."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

import engine
from classroom.homework import selectors as homework_selectors
from classroom.lti.tool import Refused
from classroom.models import Assignment, ClassSession
from classroom.sessions import services as session_services
from classroom.sessions.forms import option_field_name, variant_key

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest"
GAME = "game"
VARIANT = "variant"
OPTION = "option_"
ASSIGNMENT = "assignment"
RUNNING = (ClassSession.Status.LOBBY, ClassSession.Status.PLAYING)
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")


@dataclass(frozen=True)
class GameLink:
    """A game, its variant and every option (resolved: the defaults of the day written out)."""

    game: str
    variant: str
    options: dict


@dataclass(frozen=True)
class AssignmentLink:
    assignment_id: int


Link = GameLink | AssignmentLink


def game_link(*, game: str, variant: str, options: dict) -> GameLink:
    """The game, variant and options if the engine has them (it is the judge), else
    ``engine.SetupError``."""
    spec = engine.get_game(game).variants.get(variant)
    if spec is None:
        raise engine.SetupError("unknown_variant", f"{game} has no variant {variant!r}")
    return GameLink(game=game, variant=variant, options=dict(spec.resolve_options(options)))


def custom_parameters(link: Link) -> dict[str, str]:
    """The link's custom parameters, as strings (LTI's custom values are strings)."""
    if isinstance(link, AssignmentLink):
        return {ASSIGNMENT: str(link.assignment_id)}
    custom = {GAME: link.game, VARIANT: link.variant}
    for name, value in sorted(link.options.items()):
        custom[OPTION + name] = _text(value)
    return custom


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def link_of(claims: dict) -> Link | None:
    """What a resource-link launch's custom parameters name, or None for a plain link (and for
    any other message: a deep-linking request names nothing yet). Raises Refused for a link that
    names what does not exist here, or two things at once."""
    if claims.get(CLAIM + "message_type") != RESOURCE_LINK_REQUEST:
        return None
    custom = claims.get(CLAIM + "custom") or {}
    if not isinstance(custom, dict):
        raise Refused("custom parameters that are not an object", kind="bad_link")
    custom = {str(key): value for key, value in custom.items()}
    options = {key[len(OPTION) :]: value for key, value in custom.items() if key.startswith(OPTION)}
    names_game = GAME in custom or VARIANT in custom or bool(options)
    if names_game and ASSIGNMENT in custom:
        raise Refused(f"a link naming a game and an assignment: {custom}", kind="bad_link")
    if ASSIGNMENT in custom:
        assignment = str(custom[ASSIGNMENT])
        if not WHOLE_NUMBER.fullmatch(assignment) or int(assignment) <= 0:
            raise Refused(f"no such assignment: {assignment!r}", kind="bad_link")
        return AssignmentLink(assignment_id=int(assignment))
    if not names_game:
        return None
    return _game_link_of(str(custom.get(GAME, "")), str(custom.get(VARIANT, "")), options)


def _game_link_of(game: str, variant: str, texts: dict) -> GameLink:
    try:
        spec = engine.get_game(game).variants.get(variant)
        if spec is None:
            raise engine.SetupError("unknown_variant", f"{game} has no variant {variant!r}")
        kinds = {option.name: option.kind for option in spec.options.values()}
        options = {name: _value(kinds.get(name), name, text) for name, text in texts.items()}
        return game_link(game=game, variant=variant, options=options)
    except engine.SetupError as error:
        raise Refused(
            f"a link to a game this site does not have: {error}", kind="bad_link"
        ) from error


def _value(kind: str | None, name: str, text):
    """An option's value as the engine takes it, from its custom parameter's text."""
    text = str(text)
    if kind == "bool" and text in ("true", "false"):
        return text == "true"
    if kind == "int" and WHOLE_NUMBER.fullmatch(text):
        return int(text)
    if kind == "choice" or kind is None:
        return text  # the engine refuses a choice it does not have, or an unknown option
    raise engine.SetupError("bad_option", f"option {name!r} cannot be {text!r}")


def _assignment_of_class(link: AssignmentLink, classroom) -> Assignment:
    assignment = Assignment.objects.filter(pk=link.assignment_id, classroom=classroom).first()
    if assignment is None:
        raise Refused(
            f"a link to assignment {link.assignment_id}, not of class {classroom.pk}",
            status=403,
            kind="bad_link",
        )
    return assignment


def running_session(*, classroom, game: str, variant: str) -> ClassSession | None:
    """The class's newest lesson of that game and variant still open (lobby or playing)."""
    return (
        ClassSession.objects.filter(
            classroom=classroom, game=game, variant=variant, status__in=RUNNING
        )
        .order_by("-created_at", "-pk")
        .first()
    )


def teacher_landing(claims: dict, classroom) -> str:
    """A game link: the class's lesson of that game if one is open, else the new-lesson form
    with the game, variant and options set; a homework or personal practice link: its page; a
    plain link: the class."""
    link = link_of(claims)
    if isinstance(link, AssignmentLink):
        assignment = _assignment_of_class(link, classroom)
        return reverse("classroom:homework_detail", args=[assignment.pk])
    if isinstance(link, GameLink):
        session = running_session(classroom=classroom, game=link.game, variant=link.variant)
        if session is not None:
            return reverse("classroom:sessions_detail", args=[session.pk])
        preset = {"variant": variant_key(link.game, link.variant)}
        for name, value in link.options.items():
            preset[option_field_name(link.game, link.variant, name)] = _text(value)
        url = reverse("classroom:sessions_create", args=[classroom.pk])
        return f"{url}?{urlencode(preset)}"
    return reverse("classroom:roster_class", args=[classroom.pk])


def learner_landing(claims: dict, classroom, student) -> str:
    """A game link: the child joins the class's open lesson of that game (its lobby, or their
    table once seated), else a page saying it has not started; a homework link: the homework
    (personal practice not set for this child: a page saying so); a plain link: their home."""
    link = link_of(claims)
    if isinstance(link, AssignmentLink):
        assignment = _assignment_of_class(link, classroom)
        if homework_selectors.student_assignment(student=student, assignment_id=assignment.pk):
            return reverse("classroom:homework_student", args=[assignment.pk])
        return reverse("lti:practice_not_set", args=[assignment.pk])
    if isinstance(link, GameLink):
        session = running_session(classroom=classroom, game=link.game, variant=link.variant)
        if session is None:
            return reverse("lti:game_waiting", args=[classroom.pk, link.game, link.variant])
        # A lobby closed to newcomers does not let the child in: its page says so.
        with contextlib.suppress(session_services.SessionError):
            session_services.session_join(session=session, student=student)
        return reverse("classroom:sessions_lobby", args=[session.pk])
    return reverse("classroom:student_home")
