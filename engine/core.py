"""The game protocol shared by the five games.

A game is a stateless object; everything that changes lives in a ``State`` whose ``data`` is plain
JSON (dicts with string keys, lists, ints, strings, bools, None), so a state can be stored in a
database row, sent across processes and replayed exactly. ``apply`` and ``tick`` never touch their
input: they work on a clone and return a new state whose version is one higher.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterable, Mapping
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


# --- focus: deals biased toward a child's facts ---------------------------------------------------

# A fact as the teaching layer names it: (operation, a, b), "add" a + b, "sub" a - b, "mul" a x b.
Fact = tuple[str, int, int]
FACT_OPERATIONS = ("add", "sub", "mul")
_FACT_SIGNS = {"add": "+", "sub": "-", "mul": "x"}
# At most this many facts steer one deal: a guard on a deal's cost, not a teaching choice. A
# child's working set over the games personal practice offers (a few facts for each game,
# merged) stays under it, as the teaching layer's tests check: at 12 it cut a set for three
# games, and the facts cut were its last, the reviews and the new facts.
MAX_FOCUS_FACTS = 64


def fact_value(fact: Fact) -> int:
    """The fact's answer: a + b, a - b or a x b."""
    operation, a, b = fact
    return a + b if operation == "add" else a - b if operation == "sub" else a * b


def same_fact(fact: Fact, other: Fact) -> bool:
    """Whether ``other`` is ``fact`` as a deal can offer it: a sum or a product is one pair of
    cards whichever way round the child reads it (the deal cannot choose which of 7 x 8 and 8 x 7
    the child says), a difference is ordered."""
    if fact[0] != other[0]:
        return False
    if fact[0] == "sub":
        return fact[1:] == other[1:]
    return sorted(fact[1:]) == sorted(other[1:])


def attempt_fact(event: Event) -> Fact | None:
    """The fact an attempt event asked (two operands, one of +, -, x), or None."""
    operands = event.get("operands")
    operation = {"+": "add", "-": "sub", "x": "mul"}.get(event.get("operator"))
    if operation is None or not isinstance(operands, list) or len(operands) != 2:
        return None
    return (operation, operands[0], operands[1])


@dataclass(frozen=True)
class Focus:
    """What a game's deal can bias toward a child's facts (docs/adding-a-game.md, "Focused
    deals"). A focused deal is still a deal of the rulebook: the same cards, tiles or targets,
    the same rules; only the order or the selection that chance would have given is steered, from
    the same seed, so the same (seed, focus) always deals the same.

    operations  the fact operations the deal can steer ("add", "sub", "mul")
    variants    the variants whose deal can be focused
    how         one sentence for people: what the deal steers
    shows       (variant, fact) -> whether that variant's deck can make the fact a natural move
                at all (¡Mía!'s cards hold no 0, SUM's centre is 1-9); other facts are left to
                chance
    by_bots     the focus is carried by the game's bots, not by its deal: the deal cannot be
                steered (in Add or Multiply? every player holds the same cards), but the numbers
                a child is asked about are the ones the other players choose, so bots playing
                with one child choose the child's facts ("Bots in focused practice" in the rules
                doc). ``game.new(..., focus=)`` checks the facts and deals as usual; the bots need
                ``engine.bots.choose(..., leave=facts, people=seats)`` to know the child's seat,
                and steer only when exactly one seat is a person's. A table of children alone
                cannot be focused.
    """

    operations: frozenset[str]
    variants: tuple[str, ...]
    how: str
    shows: Callable[[str, Fact], bool]
    by_bots: bool = False

    def facts(self, variant: str, focus: Iterable[Any]) -> tuple[Fact, ...]:
        """The focus checked (``SetupError`` "bad_focus") and cut to the facts this variant can
        show, first occurrence first."""
        if isinstance(focus, (str, bytes)) or not isinstance(focus, Iterable):
            raise SetupError("bad_focus", "the focus is a list of facts (operation, a, b)")
        kept: list[Fact] = []
        for item in focus:
            if (
                not isinstance(item, (tuple, list))
                or len(item) != 3
                or item[0] not in FACT_OPERATIONS
                or any(isinstance(n, bool) or not isinstance(n, int) for n in item[1:])
            ):
                raise SetupError("bad_focus", f"{item!r} is not a fact (operation, a, b)")
            fact = (item[0], item[1], item[2])
            if fact[0] not in self.operations:
                raise SetupError("bad_focus", f"this game cannot deal toward {fact[0]!r} facts")
            if fact not in kept and self.shows(variant, fact):
                kept.append(fact)
        if len(kept) > MAX_FOCUS_FACTS:
            kept = kept[:MAX_FOCUS_FACTS]
        return tuple(kept)

    def dealable(self, variant: str, facts: Iterable[Fact]) -> frozenset[Fact]:
        """Which of ``facts`` a focused deal of ``variant`` can steer toward: of an operation the
        deal steers, shown by the variant's deck (``shows``); none for a variant whose deal is
        not focused. The teaching layer asks for its working set among these, so it offers no
        fact the game would leave to chance."""
        if variant not in self.variants:
            return frozenset()
        return frozenset(
            (fact[0], fact[1], fact[2])
            for fact in facts
            if fact[0] in self.operations and self.shows(variant, (fact[0], fact[1], fact[2]))
        )


def swap_in(
    cards: list, position: int, wanted: Callable[[Any], bool], rng: Rng, keep: set[int]
) -> bool:
    """Puts at ``position`` of ``cards`` a card that ``wanted`` accepts, chosen by ``rng`` among
    the positions not in ``keep`` (already steered), by swapping the two: the list stays a
    permutation of the same cards. False (nothing moved) when no such card is left."""
    if wanted(cards[position]) and position not in keep:
        keep.add(position)
        return True
    found = [i for i, card in enumerate(cards) if i not in keep and i != position and wanted(card)]
    if not found:
        return False
    other = rng.choice(found)
    cards[position], cards[other] = cards[other], cards[position]
    keep.add(position)
    return True


@dataclass(frozen=True)
class PuzzleDeal:
    """One puzzle: the deal ``seed`` of its variant, and how hard it is (1 gentle to 5 tricky);
    ``focus``: the facts it was steered toward, if any."""

    seed: int
    difficulty: int
    focus: tuple = ()


@dataclass(frozen=True)
class Puzzles:
    """A game's solo puzzles, which the platform sets as homework (docs/adding-a-game.md).

    sizes      size -> the one-player variant that plays a puzzle of that size, in the order
               pages offer them (the size is the number a teacher picks: a square's width)
    generate   (size, difficulty 1-5, seed) -> a deal (anything with ``seed`` and ``difficulty``,
               such as PuzzleDeal) that ``game.new(variant=sizes[size], players=1, seed=deal.seed)``
               sets up; the same arguments always give the same deal, and a different seed
               usually another one. Its difficulty is the closest it found to the one asked.
               A game whose ``focus`` covers its puzzle variants also takes ``focus=`` facts:
               the deal is then steered toward them (its solution claims them where the cards
               allow) and carries them as ``deal.focus``, which ``game.new(..., focus=)`` needs
               to set it up again.
    max_stars  the best ``Outcome.scores[0]`` of a finished puzzle (its stars; 0 when lost)
    """

    sizes: Mapping[int, str]
    generate: Callable[..., Any]
    max_stars: int

    def variant(self, size: int) -> str:
        return self.sizes[size]

    def size_of(self, variant: str) -> int | None:
        return next((size for size, name in self.sizes.items() if name == variant), None)


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


# --- arithmetic attempts -------------------------------------------------------------------------

_OPERATION_NAMES = {"+": "add", "-": "sub", "x": "mul", "÷": "div", "mixed": "mixed"}


def skill_tag(operator: str, numbers: Iterable[int]) -> str:
    """Operation and number range, e.g. ``add.within10``: the range of the largest number of the
    problem (its operands, its true result and any target it sets), so a teacher sees
    "subtraction within 20" as one skill. Just the operation when the problem has no number."""
    numbers = [abs(n) for n in numbers]
    if not numbers:
        return _OPERATION_NAMES[operator]
    largest = max(numbers)
    if largest <= 10:
        band = "within10"
    elif largest <= 20:
        band = "within20"
    elif largest <= 100:
        band = "within100"
    else:
        band = "over100"
    return f"{_OPERATION_NAMES[operator]}.{band}"


def attempt_event(
    *,
    seat: int,
    operands: list[int],
    operator: str,
    answer: int | None,
    expected: int | None,
    correct: bool,
    elapsed_ms: int,
    target: int | None = None,
    **extra: Any,
) -> Event:
    """The attempt event (docs/architecture.md, "Contracts"). The problem's numbers are
    ``operands``, ``expected`` (their true result) and, in the games where a child makes a number on
    the table (¡Mía!, SUM), ``target``; the child's number is ``answer`` (typed, laid or claimed: in
    ¡Mía! and SUM the child claims that their cards make the target, so it is the target). The
    skill's range is the problem's, never the answer's: 3 + 4 typed as 12 is addition within 10.
    ``extra`` may add game-specific keys (for example ``expression``)."""
    problem = [*operands, *(v for v in (expected, target) if isinstance(v, int))]
    event: Event = {
        "type": "attempt",
        "seat": seat,
        "operands": list(operands),
        "operator": operator,
        "answer": answer,
        "expected": expected,
        "correct": bool(correct),
        "elapsed_ms": max(0, int(elapsed_ms)),
        "skill": skill_tag(operator, problem),
    }
    if target is not None:
        event["target"] = target
    event.update(extra)
    return event


# --- the game base class -------------------------------------------------------------------------


def require(condition: bool, code: str, message: str) -> None:
    if not condition:
        raise IllegalMove(code, message)


def require_int(
    move: Mapping[str, Any], key: str, lo: int | None = None, hi: int | None = None
) -> int:
    value = move.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(MALFORMED, f"{key!r} must be a whole number")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise IllegalMove(MALFORMED, f"{key!r} must be between {lo} and {hi}")
    return value


MoveHandler = Callable[..., None]


def plays(move_type: str, *, fields: tuple[str, ...] = ()) -> Callable[[MoveHandler], MoveHandler]:
    """Declares the Game method that plays the moves of ``move_type``, as
    ``method(self, state, rng, seat, move, now_ms, events)``: the game's ``moves`` table.
    ``fields`` are the keys such a move may carry besides ``type``; ``apply`` refuses any other
    (``UNKNOWN_FIELD``), so that nothing a game never reads reaches the match's move log."""

    def declare(method: MoveHandler) -> MoveHandler:
        method.move_type = move_type  # type: ignore[attr-defined]
        method.move_fields = frozenset(fields)  # type: ignore[attr-defined]
        return method

    return declare


def _answers_one_of(answered: Iterable[Fact], facts: Iterable[Fact]) -> bool:
    wanted = tuple(facts)
    return any(same_fact(fact, answer) for answer in answered for fact in wanted)


class Game:
    """Subclasses set ``slug``, ``title``, ``variants``, declare their moves with ``@plays`` and
    implement the other ``_``-prefixed hooks plus ``active``, ``legal_moves``, ``outcome``,
    ``hint`` and ``bot_move``. The public methods here hold the parts of the contract that are the
    same for every game."""

    slug: str = ""
    title: str = ""
    variants: dict[str, Variant] = {}
    # Move type -> the method that plays it, gathered from the methods marked ``@plays``; ``apply``
    # refuses any other type (UNKNOWN_MOVE) before it looks at the state.
    moves: Mapping[str, MoveHandler] = {}
    # Move type -> the keys a move of that type may carry besides "type" (``@plays(fields=)``),
    # unless a game that plays its moves elsewhere lists them itself (¡Mía! hands each move to the
    # rules of the variant's own module). ``apply`` refuses any other type and any other key.
    move_fields: Mapping[str, frozenset[str]] = {}
    # The types ``apply`` accepts: those of ``move_fields``.
    move_types: tuple[str, ...] = ()
    # Every seat may act at once, all the time (¡Mía!'s race for the card), instead of in turns:
    # a child who has not answered is then waiting since their own last move, not the table's.
    real_time: bool = False
    # Whether an answer's time measures recall of its one fact: False where it also holds work
    # or waiting that is not the fact (¡Mía!'s race: waiting for a card worth claiming and
    # searching the hand; ADD UP: adding up both rows before the difference is even posed).
    # Such answers count for accuracy; for fluency only when quick (docs/progress.md).
    times_recall: bool = True
    # The key of the public view (``view(state, None)``) that holds each seat's score so far, as
    # the table counts it (points, cards won, piles); "" for a game without one.
    score_key: str = ""
    # How a child gives this game's answers, for the words a teacher reads of an attempt:
    # "typed" (a number typed for the problem), "claimed" (cards said to make a target card),
    # "balanced" (a card laid to even out two rows) or "placed" (a tile laid to complete two).
    answer_form: str = "typed"
    # The tables (variant, players) engine.bench times, typical classroom tables; empty: each
    # variant at three players, or as near as it allows.
    bench_tables: tuple[tuple[str, int], ...] = ()
    # The table where engine.bench's bots play each other for their win rates; None: the first
    # bench table of two players or more.
    arena_table: tuple[str, int] | None = None
    # The solo puzzles the game offers as homework (Puzzles), or None: it has none.
    puzzles: Puzzles | None = None
    # How the game's deal can be biased toward a child's facts (Focus), or None: it cannot be
    # biased fairly (its docs/rules/<slug>.md says why) and is not offered for focused practice.
    focus: Focus | None = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        declared = {
            method.move_type: method
            for method in vars(cls).values()
            if isinstance(getattr(method, "move_type", None), str)
        }
        if declared:
            cls.moves = {**cls.moves, **declared}
        if "move_fields" not in vars(cls):
            cls.move_fields = {
                move_type: method.move_fields for move_type, method in cls.moves.items()
            }
        cls.move_fields = {
            move_type: frozenset(fields) for move_type, fields in cls.move_fields.items()
        }
        cls.move_types = tuple(cls.move_fields)

    # -- setup
    def new(
        self,
        variant: str,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        now_ms: int = 0,
        focus: Iterable[Fact] | None = None,
    ) -> State:
        """A new game of ``variant``. ``focus``: facts (operation, a, b) the deal is biased toward
        (``Game.focus``); none, or an empty list, deals exactly as without it."""
        spec = self.variants.get(variant)
        if spec is None:
            raise SetupError("unknown_variant", f"{self.slug} has no variant {variant!r}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupError("bad_players", "the number of players must be a whole number")
        if not spec.min_players <= players <= spec.max_players:
            raise SetupError(
                "bad_players",
                f"{spec.title} takes {spec.min_players} to {spec.max_players} players",
            )
        resolved = spec.resolve_options(options)
        facts = self._focus_facts(variant, focus)
        state = State(self.slug, variant, players, resolved, 0, seed_word(seed), {})
        if facts and not self.focus.by_bots:
            self._setup_focused(state, state.random(), now_ms, facts)
        else:
            self._setup(state, state.random(), now_ms)
        return state

    def _focus_facts(self, variant: str, focus: Iterable[Fact] | None) -> tuple[Fact, ...]:
        if focus is None:
            return ()
        if self.focus is None or variant not in self.focus.variants:
            if isinstance(focus, (list, tuple)) and not focus:
                return ()
            raise SetupError("no_focus", f"{self.slug} {variant!r} cannot deal toward facts")
        return self.focus.facts(variant, focus)

    def _setup(self, state: State, rng: Rng, now_ms: int) -> None:
        raise NotImplementedError

    def _setup_focused(self, state: State, rng: Rng, now_ms: int, facts: tuple[Fact, ...]) -> None:
        """``_setup`` with the deal steered toward ``facts`` (each one the variant shows): the
        rulebook's deal from the same seeded generator, of which only the order or selection of
        the same cards is steered (by draws from ``rng`` too, so the same seed and focus always
        deal the same); the deal without focus never makes those draws."""
        raise NotImplementedError

    def running_scores(self, state: State) -> list[int] | None:
        """Each seat's score so far, as the table shows it (leaderboards, the teacher's tables)."""
        if not self.score_key:
            return None
        scores = self.view(state, None).get(self.score_key)
        if isinstance(scores, list) and all(isinstance(n, int) for n in scores):
            return scores
        return None

    # -- play
    def active(self, state: State) -> frozenset[int]:
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        raise NotImplementedError

    def passes_in_a_row(self, state: State) -> list[int] | None:
        """Per seat, the chances in a row it passed or let time run out on since its last answer
        (a pass is no wrong answer, but a child who passes card after card needs help); None for
        a game without passes."""
        return None

    def apply(self, state: State, seat: int, move: Move, now_ms: int) -> Step:
        if self.outcome(state) is not None:
            raise IllegalMove(GAME_OVER, "the game is over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalMove(BAD_SEAT, "no such seat")
        self.check_shape(move)
        if seat not in self.active(state) and not self.heard_out_of_turn(state, seat, move):
            raise IllegalMove(NOT_ACTIVE, "it is not your turn to act")
        new_state = state.clone()
        new_state.version += 1
        events: list[Event] = []
        self._apply(new_state, new_state.random(), seat, move, now_ms, events)
        return Step(new_state, events)

    def heard_out_of_turn(self, state: State, seat: int, move: Move) -> bool:
        """Whether ``move`` answers a moment that has just passed and is heard from ``seat`` even
        though it may not act now (¡Mía!'s claim that lost the race for a card: the child's
        answer to it all the same); ``_apply`` then records it without playing it."""
        return False

    def check_shape(self, move: Any) -> None:
        """Refuses (``IllegalMove``) a move that is not an object of a type this game declares,
        carrying only the keys declared for that type. It reads no state: a server checks a
        move's shape as it arrives, before any database work."""
        if not isinstance(move, Mapping) or not isinstance(move.get("type"), str):
            raise IllegalMove(MALFORMED, "a move is an object with a 'type'")
        fields = self.move_fields.get(move["type"])
        if fields is None:
            raise IllegalMove(UNKNOWN_MOVE, f"{self.slug} has no move {move['type']!r}")
        unknown = sorted(str(key) for key in move if key != "type" and key not in fields)
        if unknown:
            allowed = ", ".join(sorted(fields)) or "nothing"
            raise IllegalMove(
                UNKNOWN_FIELD,
                f"a {move['type']!r} move carries {allowed} besides its type, not {unknown[0]!r}",
            )

    def _apply(
        self, state: State, rng: Rng, seat: int, move: Move, now_ms: int, events: list[Event]
    ):
        self.moves[move["type"]](self, state, rng, seat, move, now_ms, events)

    def deadline(self, state: State) -> int | None:
        """The earliest time (ms) at which ``tick`` would change the state; None: no timer runs."""
        return None

    def tick(self, state: State, now_ms: int) -> Step:
        """Fire the timers due at ``now_ms``. When none is due the input state comes back as it
        was (same version) with no events, so a late or repeated wake-up is harmless."""
        due = self.deadline(state)
        if due is None or now_ms < due or self.outcome(state) is not None:
            return Step(state, [])
        new_state = state.clone()
        new_state.version += 1
        events: list[Event] = []
        self._tick(new_state, new_state.random(), now_ms, events)
        return Step(new_state, events)

    def _tick(self, state: State, rng: Rng, now_ms: int, events: list[Event]) -> None:
        raise NotImplementedError

    # -- seeing
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is not None and not 0 <= seat < state.players:
            raise IllegalMove(BAD_SEAT, "no such seat")
        outcome = self.outcome(state)
        view = {
            "game": self.slug,
            "variant": state.variant,
            "version": state.version,
            "players": state.players,
            "options": dict(state.options),
            "seat": seat,
            "active": sorted(self.active(state)) if outcome is None else [],
            "deadline": self.deadline(state) if outcome is None else None,
            "outcome": None if outcome is None else outcome.as_dict(),
        }
        view.update(self._view(state, seat))
        return view

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def event_view(self, events: list[Event], seat: int | None) -> list[Event]:
        """What ``seat`` may receive of a step's events, as ``view`` is what it may see of the
        state (docs/architecture.md; boardgame.io filters its log alike). ``seat=None`` is the
        teacher watching the table, who receives every attempt. An arithmetic attempt goes to its
        actor alone at the table: its presence, its answer and its rightness may all depend on a
        hand (in ADD UP an attempt exists only when the mover's hand held a balancing card, so
        the table learned that from it). A game whose events carry more that some seats may not
        see overrides ``_event_for``."""
        return [event for event in events if self._event_for(event, seat)]

    def _event_for(self, event: Event, seat: int | None) -> bool:
        if event.get("type") == "attempt":
            return seat is None or event.get("seat") == seat
        return True

    def outcome(self, state: State) -> Outcome | None:
        raise NotImplementedError

    def hint(self, state: State, seat: int) -> Move | None:
        """A right move for ``seat`` when one exists (learning support, "needs help" signals)."""
        raise NotImplementedError

    def bot_move(self, state: State, seat: int, level: str, rng) -> Move | None:
        """The move a bot of ``level`` makes now, or None when it would rather wait (real time)."""
        raise NotImplementedError

    # -- bots that leave a child's facts (docs/adding-a-game.md, "Bots in focused practice")
    def move_facts(self, state: State, seat: int, move: Move) -> list[Fact] | None:
        """The facts ``move`` would answer now (the facts of its attempt events), found by playing
        it on a copy of the state; None for a move the rules refuse."""
        due = self.deadline(state)
        probe_ms = max(0, due - 1) if due is not None else 0
        try:
            step = self.apply(state, seat, move, probe_ms)
        except IllegalMove:
            return None
        facts = []
        for event in step.events:
            if event.get("type") == "attempt" and event.get("seat") == seat:
                fact = attempt_fact(event)
                if fact is not None:
                    facts.append(fact)
        return facts

    def answers_any(self, state: State, seat: int, move: Move, facts: Iterable[Fact]) -> bool:
        """Whether ``move`` would answer one of ``facts`` (``same_fact``); a move the rules refuse
        answers nothing."""
        return _answers_one_of(self.move_facts(state, seat, move) or (), facts)

    def leaves_all(self, state: State, seat: int, move: Move, facts: Iterable[Fact]) -> bool:
        """Whether ``move`` is legal now and answers none of ``facts``."""
        answered = self.move_facts(state, seat, move)
        return answered is not None and not _answers_one_of(answered, facts)

    def bot_alternatives(self, state: State, seat: int, level: str, rng) -> list[Move]:
        """Other moves a bot of ``level`` may make now instead of its own choice, best first: the
        moves it turns to when its choice would answer a fact left to a child. None by default
        (a game whose rules leave the bot no other choice)."""
        return []

    def bot_move_leaving(
        self,
        state: State,
        seat: int,
        level: str,
        rng,
        leave: tuple[Fact, ...],
        people: frozenset[int] = frozenset(),
    ) -> Move | None:
        """``bot_move``, leaving the ``leave`` facts to the child at the table where the rules
        allow: when the bot's choice would answer one, the first of its ``bot_alternatives`` that
        answers none; with none such, its own choice (the game never stalls on a bot).
        ``people``: the seats where people play (the child whose facts they are); a game whose
        focus is carried by its bots (``Focus.by_bots``) steers toward them with it, the others
        need not know."""
        move = self.bot_move(state, seat, level, rng)
        if move is None or not leave or not self.answers_any(state, seat, move, leave):
            return move
        for other in self.bot_alternatives(state, seat, level, rng):
            if other != move and self.leaves_all(state, seat, other, leave):
                return other
        return move

    # -- storage
    def dump(self, state: State) -> dict[str, Any]:
        return {
            "game": state.game,
            "variant": state.variant,
            "players": state.players,
            "options": dict(state.options),
            "version": state.version,
            "rng": state.rng,
            "data": state.data,
        }

    def load(self, data: Mapping[str, Any]) -> State:
        if data.get("game") != self.slug:
            raise SetupError("wrong_game", f"this state is not a {self.slug} game")
        return State(
            data["game"],
            data["variant"],
            data["players"],
            dict(data["options"]),
            data["version"],
            data["rng"],
            marshal.loads(marshal.dumps(data["data"])),
        )

    def describe(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "title": self.title,
            "variants": {
                name: {
                    "title": v.title,
                    "min_players": v.min_players,
                    "max_players": v.max_players,
                    "options": [o.describe() for o in v.options.values()],
                }
                for name, v in self.variants.items()
            },
        }

    def __repr__(self) -> str:
        return f"<Game {self.slug}>"
