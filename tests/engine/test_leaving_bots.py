"""Bots that teach (issue 25, item 5): a bot at a child's table, told the child's focus facts
(``engine.bots.choose(..., leave=facts)``), leaves them to the child where the rules allow and the
game still ends (docs/rules/<slug>.md, "Bots in focused practice")."""

from __future__ import annotations

import random

import pytest

import engine
from engine import bots
from engine.core import attempt_fact, same_fact
from engine.simulate import bot_chooser, play
from tests.engine.test_focus import TABLES

SEEDS = range(24)
CHILD = 0  # seat 0 stands in for the child: an easy bot that leaves nothing


def _leaving(level, leave):
    def choose(game, state, seat, rng):
        return bots.choose(game, state, seat, level, rng, leave=leave)

    return choose


def _bots_focus_answers(slug, variant, players, focus, leave, options=None):
    """Over SEEDS focused games played to the end: how many of the bots' answers (every seat but
    the child's) were focus facts, and how many of the child's."""
    game = engine.get_game(slug)
    bots_share = child_share = 0
    for seed in SEEDS:
        state = game.new(variant, players, seed, options=options or {}, focus=focus)
        choosers = [bot_chooser("easy")] + [_leaving("easy", leave)] * (players - 1)
        done = play(game, state, choosers, random.Random(seed))
        assert done.outcome is not None
        for event in done.events:
            if event.get("type") != "attempt":
                continue
            fact = attempt_fact(event)
            if fact is not None and any(same_fact(fact, wanted) for wanted in focus):
                if event["seat"] == CHILD:
                    child_share += 1
                else:
                    bots_share += 1
    return bots_share, child_share


@pytest.mark.parametrize("slug", ["mia", "sum", "mathable_junior"])
def test_bots_told_to_leave_the_focus_facts_answer_markedly_fewer_of_them(slug):
    variant, players, focus, _count = TABLES[slug]
    plain_bots, plain_child = _bots_focus_answers(slug, variant, players, focus, leave=())
    leaving_bots, leaving_child = _bots_focus_answers(slug, variant, players, focus, leave=focus)
    assert plain_bots >= 10, plain_bots
    assert leaving_bots <= plain_bots / 2, (leaving_bots, plain_bots)
    # What the bots leave, the child gets to answer.
    assert leaving_child > plain_child, (leaving_child, plain_child)


def test_at_a_calm_mia_table_bots_answer_as_before():
    """At a calm table every seat answers each card and every right answer scores, so a bot's
    answer takes nothing from the child, and a bot never waits there (no timer would move the
    table on): leave changes nothing."""
    game = engine.get_game("mia")
    variant, players, focus, _count = TABLES["mia"]
    for seed in range(6):
        state = game.new(variant, players, seed, options={"calm": True}, focus=focus)
        plain = play(game, state, [bot_chooser("easy")] * players, random.Random(seed))
        choosers = [bot_chooser("easy")] + [_leaving("easy", focus)] * (players - 1)
        leaving = play(game, state, choosers, random.Random(seed))
        assert leaving.moves == plain.moves and leaving.outcome is not None


def test_add_up_bots_cannot_leave_a_difference_and_play_as_before():
    """Add up: every play by a hand that holds a balancing card is an answer to the rows'
    difference (RULINGS 3), so a bot has no move that leaves it: it plays as without leave."""
    game = engine.get_game("add_up")
    variant, players, focus, _count = TABLES["add_up"]
    for seed in range(10):
        state = game.new(variant, players, seed, focus=focus)
        plain = play(game, state, [bot_chooser("easy")] * players, random.Random(seed))
        leaving = play(
            game,
            state,
            [bot_chooser("easy")] + [_leaving("easy", focus)] * (players - 1),
            random.Random(seed),
        )
        assert leaving.moves == plain.moves


@pytest.mark.parametrize("level", ["random", "strong"])
@pytest.mark.parametrize("slug", ["mia", "sum", "mathable_junior", "add_up"])
def test_every_level_told_to_leave_facts_still_finishes_the_game(slug, level):
    game = engine.get_game(slug)
    variant, players, focus, _count = TABLES[slug]
    for seed in range(4):
        state = game.new(variant, players, seed, focus=focus)
        choosers = [bot_chooser("easy")] + [_leaving(level, focus)] * (players - 1)
        assert play(game, state, choosers, random.Random(seed)).outcome is not None


def test_a_game_with_no_focus_takes_leave_facts_and_plays_as_before():
    game = engine.get_game("add_or_multiply")
    state = game.new("standard", 3, 3)
    for seat in game.active(state):
        assert bots.choose(game, state, seat, "easy", random.Random(1), leave=[("add", 2, 3)]) == (
            bots.choose(game, state, seat, "easy", random.Random(1))
        )
