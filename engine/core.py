"""The game protocol shared by the five games: the ``Game`` base class and ``@plays``.

``apply`` and ``tick`` never touch their input: they work on a clone (``engine.state.State``) and
return a new state whose version is one higher. The names of ``engine.state`` and
``engine.teaching`` that games use are importable from here too.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.state import (
    BAD_SEAT,
    GAME_OVER,
    JSON,
    MALFORMED,
    NOT_ACTIVE,
    UNKNOWN_FIELD,
    UNKNOWN_MOVE,
    EngineError,
    Event,
    IllegalMove,
    Move,
    Option,
    Outcome,
    Rng,
    SetupError,
    State,
    Step,
    Variant,
    first_player_option,
    outcome_from_scores,
    places,
    refusal,
    seed_word,
    variants,
)
from engine.teaching import (
    FACT_OPERATIONS,
    MAX_FOCUS_FACTS,
    Fact,
    Focus,
    PuzzleDeal,
    Puzzles,
    attempt_event,
    attempt_fact,
    fact_value,
    same_fact,
    skill_tag,
    swap_in,
)

__all__ = [
    "BAD_SEAT",
    "FACT_OPERATIONS",
    "GAME_OVER",
    "JSON",
    "MALFORMED",
    "MAX_FOCUS_FACTS",
    "NOT_ACTIVE",
    "UNKNOWN_FIELD",
    "UNKNOWN_MOVE",
    "EngineError",
    "Event",
    "Fact",
    "Focus",
    "Game",
    "IllegalMove",
    "Move",
    "MoveHandler",
    "Option",
    "Outcome",
    "PuzzleDeal",
    "Puzzles",
    "Rng",
    "SetupError",
    "State",
    "Step",
    "Variant",
    "attempt_event",
    "attempt_fact",
    "fact_value",
    "first_player_option",
    "outcome_from_scores",
    "places",
    "plays",
    "refusal",
    "require",
    "require_int",
    "same_fact",
    "seed_word",
    "skill_tag",
    "swap_in",
    "variants",
]

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
    # Move type -> the keys a move of that type may carry besides "type" (``@plays(fields=)``).
    # ``apply`` refuses any other type and any other key.
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
        cls.move_fields = {move_type: method.move_fields for move_type, method in cls.moves.items()}
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
            raise refusal(GAME_OVER)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise refusal(BAD_SEAT)
        self.check_shape(move)
        if seat not in self.active(state) and not self.heard_out_of_turn(state, seat, move):
            raise refusal(NOT_ACTIVE)
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
            raise refusal(BAD_SEAT)
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
