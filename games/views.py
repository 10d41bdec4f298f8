"""The play pages. The page is a shell: everything in it comes over the match socket
(``/ws/match/<id>/``); the server renders only who sits where and what is being played."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts.models import accommodations_of
from accounts.public_names import FULL
from games import catalog, selectors, signals
from games.models import Match, shown_label
from games.read_aloud import read_aloud_config


@login_required
def play(request, match_id: int):
    access = selectors.match_access(match_id=match_id, user=request.user)
    if access is None:
        raise PermissionDenied
    return _page(request, access, watch=False)


@login_required
def watch(request, match_id: int):
    """The projector view: big type, no controls. A player's socket always carries their own seat's
    view (their hand included), so players are sent to their own page instead."""
    access = selectors.match_access(match_id=match_id, user=request.user)
    if access is None:
        raise PermissionDenied
    if not access.spectator:
        return redirect("games:play", match_id=access.match_id)
    return _page(request, access, watch=True)


def _next_links(match_id: int, user) -> list[dict]:
    links = []
    for _receiver, answer in signals.play_page_links.send(
        sender=None, match_id=match_id, user=user
    ):
        # "post": the link is a form's button (it makes something, the next homework game say).
        links.extend(
            {"label": str(link["label"]), "url": str(link["url"]), "post": bool(link.get("post"))}
            for link in answer or ()
        )
    return links or [{"label": _("Back to your home page"), "url": reverse("home"), "post": False}]


def _follow(match_id: int, user) -> dict | None:
    """A socket the layers above want the page to follow (``signals.play_page_follow``)."""
    for _receiver, answer in signals.play_page_follow.send(
        sender=None, match_id=match_id, user=user
    ):
        if answer:
            return {key: value for key, value in answer.items() if key in ("socket", "session_id")}
    return None


def _room_names(match_id: int, user) -> str:
    """How the room names children on a spectator's page (``signals.play_page_room_names``);
    full names where no layer answers."""
    for _receiver, answer in signals.play_page_room_names.send(
        sender=None, match_id=match_id, user=user
    ):
        if answer:
            return answer
    return FULL


def _own_accommodations(user, *, watch: bool) -> dict:
    """What the signed-in user's own accommodations change on their own page: numbers read aloud
    (the clips of the page's language) and numbers also drawn as dots. Nothing of another seat's
    ever goes into a page, nor anything onto the projector's view (it is the class's screen)."""
    own = accommodations_of(user)
    return {
        "read_aloud": read_aloud_config(get_language()) if own.read_aloud and not watch else None,
        "dots": bool(own.dots) and not watch,
    }


def _page(request, access: selectors.MatchAccess, *, watch: bool):
    variant, label, label_values = (
        Match.objects.filter(pk=access.match_id)
        .values_list("variant", "label", "label_values")
        .get()
    )
    label = shown_label(label, label_values)
    config = {
        "match_id": access.match_id,
        "seat": access.seat,
        "seats": selectors.match_seats(
            match_id=access.match_id,
            seat=access.seat,
            room=_room_names(access.match_id, request.user) if access.spectator else FULL,
        ),
        "game": access.game,
        "variant": variant,
        "label": label,
        "socket_path": f"/ws/match/{access.match_id}/",
        "watch": watch,
        "next": _next_links(access.match_id, request.user),
        "follow": _follow(access.match_id, request.user),
        "log": selectors.match_log(match_id=access.match_id, game=access.game, seat=access.seat),
        **_own_accommodations(request.user, watch=watch),
    }
    game_title = catalog.game_title(access.game)
    # A player (a child) reads the variant's short name; the teacher watching, the rules' own.
    variant_title = (catalog.variant_title if watch else catalog.child_variant_title)(
        access.game, variant
    )
    return render(
        request,
        "games/play.html",
        {
            "config": config,
            "game_title": game_title,
            "game_stylesheet": catalog.stylesheet(access.game),
            "variant_title": variant_title if variant_title != game_title else "",
            "label": label,
            "watch": watch,
            "spectator": access.spectator,
            "match_id": access.match_id,
        },
    )
