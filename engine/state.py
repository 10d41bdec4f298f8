"""A game's state and what sets it up: errors, options, variants, the seeded generator, results.

A game is a stateless object; everything that changes lives in a ``State`` whose ``data`` is plain
JSON (dicts with string keys, lists, ints, strings, bools, None), so a state can be stored in a
database row, sent across processes and replayed exactly. ``engine.core.Game`` holds the protocol
that works on it.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

JSON = Any
Move = dict[str, Any]
Event = dict[str, Any]

_MASK64 = (1 << 64) - 1


class EngineError(Exception):
    """Base of the engine's errors; ``code`` is a stable string clients may rely on."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class IllegalMove(EngineError):
    """A move that breaks the game's structure (not an arithmetic mistake, which is a real move)."""


class SetupError(EngineError):
    """A game that cannot be set up: unknown game or variant, bad player count, bad option."""


# Codes every game shares; games add their own, documented in docs/rules/<game>.md.
MALFORMED = "malformed"
UNKNOWN_MOVE = "unknown_move"
UNKNOWN_FIELD = "unknown_field"
NOT_ACTIVE = "not_active"
GAME_OVER = "game_over"
BAD_SEAT = "bad_seat"

# The words of the shared codes that say the same whatever the move, written once: the engine and
# the server (a move on a stopped match) refuse with them. A refusal's words are English, for
# developers and logs; the words a child reads are the play page's, one text per code
# (static/js/play), so the server has no table of its own.
SHARED_WORDS = {
    NOT_ACTIVE: "it is not your turn to act",
    GAME_OVER: "the game is over",
    BAD_SEAT: "no such seat",
}


def refusal(code: str) -> IllegalMove:
    """The refusal of a shared code in its one wording (``SHARED_WORDS``)."""
    return IllegalMove(code, SHARED_WORDS[code])


@dataclass(frozen=True)
class Option:
    """A variant option. ``kind`` is "int", "bool" or "choice". ``timer``: an "int" of seconds a
    clock runs, which the platform lengthens for a child given more time (WCAG 2.2.1); its
    ``maximum`` leaves room for twice the longest the teacher would choose."""

    name: str
    default: Any
    kind: str
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    timer: bool = False

    def validate(self, value: Any) -> Any:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise SetupError("bad_option", f"option {self.name!r} must be true or false")
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise SetupError("bad_option", f"option {self.name!r} must be a whole number")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise SetupError(
                    "bad_option",
                    f"option {self.name!r} must be between {self.minimum} and {self.maximum}",
                )
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise SetupError(
                    "bad_option", f"option {self.name!r} must be one of {', '.join(self.choices)}"
                )
            return value
        raise AssertionError(f"unknown option kind {self.kind}")

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "kind": self.kind,
            "help": self.help,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices),
            "timer": self.timer,
        }


def first_player_option() -> Option:
    """RULINGS, common: "the starting seat is drawn from the match seed (option: seat 0)"."""
    return Option(
        "first_player",
        "random",
        "choice",
        "Who starts: drawn from the match seed, or always seat 0.",
        choices=("random", "seat0"),
    )


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    min_players: int
    max_players: int
    options: Mapping[str, Option] = field(default_factory=dict)

    def resolve_options(self, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overridden by ``overrides``; unknown names and bad values are refused."""
        if overrides is None:
            overrides = {}
        if not isinstance(overrides, Mapping):
            raise SetupError("bad_option", "options must be an object")
        unknown = sorted(set(overrides) - set(self.options))
        if unknown:
            raise SetupError("unknown_option", f"unknown option(s): {', '.join(unknown)}")
        resolved = {name: opt.default for name, opt in self.options.items()}
        for name, value in overrides.items():
            resolved[name] = self.options[name].validate(value)
        return resolved


def variants(*items: Variant) -> dict[str, Variant]:
    return {v.name: v for v in items}


class State:
    """A game's whole state. ``data`` is JSON; ``rng`` is the seeded generator's 64-bit word."""

    __slots__ = ("data", "game", "options", "players", "rng", "variant", "version")

    def __init__(self, game, variant, players, options, version, rng, data):
        self.game: str = game
        self.variant: str = variant
        self.players: int = players
        self.options: dict[str, Any] = options
        self.version: int = version
        self.rng: int = rng
        self.data: dict[str, Any] = data

    def clone(self) -> State:
        # marshal copies plain containers an order of magnitude faster than copy.deepcopy.
        return State(
            self.game,
            self.variant,
            self.players,
            self.options,
            self.version,
            self.rng,
            marshal.loads(marshal.dumps(self.data)),
        )

    def random(self) -> Rng:
        return Rng(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and all(
            getattr(self, s) == getattr(other, s) for s in self.__slots__
        )

    def __repr__(self) -> str:
        return f"<State {self.game}/{self.variant} v{self.version}>"


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def seed_word(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError("bad_seed", "the seed must be a whole number")
    return _mix64(seed & _MASK64)


class Rng:
    """SplitMix64 whose whole state is ``state.rng``, so randomness replays from the seed."""

    __slots__ = ("_state",)

    def __init__(self, state: State):
        self._state = state

    def next64(self) -> int:
        self._state.rng = (self._state.rng + 0x9E3779B97F4A7C15) & _MASK64
        return _mix64(self._state.rng)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n); the multiply-shift bias is below 2**-50 for game sizes."""
        if n <= 0:
            raise ValueError("n must be positive")
        return (self.next64() * n) >> 64

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: list, k: int) -> list:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]


@dataclass(frozen=True)
class Step:
    state: State
    events: list[Event]


@dataclass(frozen=True)
class Outcome:
    scores: list[int]
    winners: list[int]

    def as_dict(self) -> dict[str, list[int]]:
        """As views and the stored match show it, with each seat's place for a podium."""
        return {"scores": self.scores, "winners": self.winners, "places": places(self)}


def places(outcome: Outcome) -> list[int]:
    """Each seat's place, 1 for the winners (who share it), then by score, highest first, equal
    scores sharing a place and the next place skipped (1, 2, 2, 4), as a podium reads. Winners
    come first even where a game's winner is not the top scorer (SUM ends when a pile is gone)."""

    def ahead(a: int, b: int) -> bool:
        a_won, b_won = a in outcome.winners, b in outcome.winners
        if a_won != b_won:
            return a_won
        return not a_won and outcome.scores[a] > outcome.scores[b]

    seats = range(len(outcome.scores))
    return [1 + sum(ahead(other, seat) for other in seats) for seat in seats]


def outcome_from_scores(scores: list[int]) -> Outcome:
    """Most points wins; ties share (every game's ruling)."""
    best = max(scores)
    return Outcome(list(scores), [seat for seat, s in enumerate(scores) if s == best])
