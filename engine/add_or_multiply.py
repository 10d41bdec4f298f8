"""Add or Multiply? — a card game for three players by Allan Stagg (rulebook seeds/004, RULINGS 5;
docs/rules/add_or_multiply.md).

Every round each player chooses in secret one number card for each opponent and one operation card
for themself; the three choices are revealed together and each player scores the two numbers played
on them combined by their own operation. After five rounds the highest total wins.

State ``data`` (plain JSON):

- ``round``: 1..5; ``phase``: "choose", "score" (students type their round score) or "over".
- ``numbers`` / ``operations``: each seat's cards as they were when the round began. The cards a
  seat has chosen leave its hand only at the reveal, so the hands stay public information (every
  card played is shown face up, so anybody can work them out; the rulebook's example lists them)
  while the choice itself stays secret.
- ``choices``: per seat ``{"give": {"<seat>": n, "<seat>": n}, "op": "A"|"M"}`` or None; secret
  until all three have chosen.
- ``typed``: per seat the round score the student typed, None while still to type.
- ``totals``: the scores of the finished rounds.
- ``history``: one entry per revealed round: ``gave`` (each seat's give), ``ops``, ``received`` (the
  two numbers played on each seat, the giver with the lower seat first, as the rulebook writes
  them), ``scores``.
- ``since_ms``: when the current decision began (for the attempts' elapsed time).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import product

from engine.core import (
    MALFORMED,
    Fact,
    Focus,
    Game,
    Option,
    Variant,
    attempt_event,
    outcome_from_scores,
    plays,
    require,
    require_int,
    variants,
)

PLAYERS = 3
ROUNDS = 5
ADD, MULTIPLY = "A", "M"
STANDARD, TO_TEN = "standard", "to_ten"
# Rulebook: "10 number cards with values 0, 0, 1, 1, 2, 2, 3, 4, 5 and 6"; "six operation cards,
# three of which are M(ultiply) and three are A(dd)".
STARTING_NUMBERS = (0, 0, 1, 1, 2, 2, 3, 4, 5, 6)
# The platform's variant "numbers to 10" (docs/rules/add_or_multiply.md, "Numbers to 10"): one
# card of each number 0 to 10, so a round can ask any sum or product of the tables to 10; the
# rest of the rulebook is kept (five rounds, so one number card is never played, as the sixth
# operation card is not).
TO_TEN_NUMBERS = tuple(range(11))
NUMBERS_OF_VARIANT = {STANDARD: STARTING_NUMBERS, TO_TEN: TO_TEN_NUMBERS}
STARTING_OPERATIONS = (ADD, ADD, ADD, MULTIPLY, MULTIPLY, MULTIPLY)
OPERATOR_SIGN = {ADD: "+", MULTIPLY: "x"}
# The biggest round score each variant's cards allow (6 x 6, 10 x 10); typed values are listed
# up to it.
LARGEST_SCORE_OF_VARIANT = {name: max(cards) ** 2 for name, cards in NUMBERS_OF_VARIANT.items()}
# A typed value outside 0..999 is not a score a child could mean: it is refused as malformed.
LARGEST_TYPED_VALUE = 999

CHOOSE, SCORE, OVER = "choose", "score", "over"

# IllegalMove codes of this game (docs/rules/add_or_multiply.md lists them with the shared ones).
BAD_RECIPIENTS = "bad_recipients"
NUMBER_NOT_HELD = "number_not_held"
OPERATION_NOT_HELD = "operation_not_held"
WRONG_PHASE = "wrong_phase"
STUDENTS_SCORE_OFF = "students_score_off"

STUDENTS_SCORE = "students_score"

# Focused practice (docs/rules/add_or_multiply.md, "Bots in focused practice"): the card each
# fact operation asks the child to play on themself.
FACT_OPERATION = {"add": ADD, "mul": MULTIPLY}
CARD_VALUES = {name: frozenset(cards) for name, cards in NUMBERS_OF_VARIANT.items()}


def shows_fact(variant: str, fact: Fact) -> bool:
    """Whether two of the variant's number cards can make ``fact``: a sum of two of 0..6 (0..10
    to ten), or a product of two of 1..6 (1..10) (0 x n is no times-table fact: the teaching
    layer's times table starts at 1 x 1)."""
    operation, a, b = fact
    values = CARD_VALUES.get(variant, frozenset())
    if operation == "add":
        return a in values and b in values
    if operation == "mul":
        return a in values and b in values and a > 0 and b > 0
    return False


def opponents(seat: int) -> tuple[int, int]:
    """The player to the left (next seat) and to the right (previous seat), RULINGS common."""
    return (seat + 1) % PLAYERS, (seat + 2) % PLAYERS


def givers(seat: int) -> tuple[int, int]:
    """The two seats that play a number on ``seat``, lower seat first (the rulebook's order:
    "Brian 0 x 3" is Susie's 0 then Ted's 3)."""
    return tuple(sorted(opponents(seat)))


def round_score(a: int, b: int, op: str) -> int:
    """Rulebook: "The two number cards played on a player, and the operation card he has played,
    determine the score the player earns for that turn"."""
    return a * b if op == MULTIPLY else a + b


@cache
def _choice_triples(numbers: tuple[int, ...], operations: tuple[str, ...]) -> tuple:
    """Every distinct (number for the left, number for the right, operation) a hand allows."""
    counts = Counter(numbers)
    values = sorted(counts)
    pairs = [(a, b) for a, b in product(values, values) if a != b or counts[a] >= 2]
    ops = sorted(set(operations))
    return tuple((a, b, op) for a, b in pairs for op in ops)


def _choice_move(seat: int, left_value: int, right_value: int, op: str) -> dict:
    left, right = opponents(seat)
    return {"type": "choose", "give": {str(left): left_value, str(right): right_value}, "op": op}


SCORE_MOVES = {
    name: tuple({"type": "score", "value": v} for v in range(largest + 1))
    for name, largest in LARGEST_SCORE_OF_VARIANT.items()
}


class AddOrMultiply(Game):
    slug = "add_or_multiply"
    score_key = "totals"
    title = "Add or Multiply?"
    # RULINGS 5: exactly 3 players. No first-player option: every round is played by all three at
    # once, so nobody starts.
    variants = variants(
        *(
            Variant(
                name,
                title,
                PLAYERS,
                PLAYERS,
                {
                    STUDENTS_SCORE: Option(
                        STUDENTS_SCORE,
                        True,
                        "bool",
                        "After each reveal every student types their round score (RULINGS 5).",
                    )
                },
            )
            for name, title in (
                (STANDARD, "Add or Multiply?"),
                (TO_TEN, "Add or Multiply?, numbers to 10 (platform variant)"),
            )
        )
    )

    # The deal is fixed, so a focus is carried by the bots: with one child and two bots, the bots
    # play the numbers of the child's facts on the child (rulebook: "Each turn a player must play
    # two of his number cards, one on each of his opponents"; RULINGS 5).
    # Numbers to 10 first: personal practice offers a game's first focused variant, and this one
    # can ask every fact of the tables to 10.
    focus = Focus(
        operations=frozenset(FACT_OPERATION),
        variants=(TO_TEN, STANDARD),
        how=(
            "Every player holds the same cards; the two bots play the numbers of the child's"
            " facts on the child, one each, and the child chooses to add or multiply them."
        ),
        shows=shows_fact,
        by_bots=True,
    )

    # -- setup
    def _setup(self, state, rng, now_ms):
        # The deal is fixed (every player holds the same cards), so the seed is never drawn from.
        state.data = {
            "round": 1,
            "phase": CHOOSE,
            "numbers": [list(NUMBERS_OF_VARIANT[state.variant]) for _ in range(PLAYERS)],
            "operations": [list(STARTING_OPERATIONS) for _ in range(PLAYERS)],
            "choices": [None] * PLAYERS,
            "typed": [None] * PLAYERS,
            "totals": [0] * PLAYERS,
            "history": [],
            "since_ms": now_ms,
        }

    # -- play
    def active(self, state):
        data = state.data
        if data["phase"] == CHOOSE:
            # A choice is final once made (the cards are laid face down).
            return frozenset(s for s in range(PLAYERS) if data["choices"][s] is None)
        if data["phase"] == SCORE:
            return frozenset(s for s in range(PLAYERS) if data["typed"][s] is None)
        return frozenset()

    def legal_moves(self, state, seat):
        if self.outcome(state) is not None or seat not in self.active(state):
            return []
        data = state.data
        if data["phase"] == CHOOSE:
            triples = _choice_triples(tuple(data["numbers"][seat]), tuple(data["operations"][seat]))
            return [_choice_move(seat, a, b, op) for a, b, op in triples]
        # Any whole number 0..999 may be typed; the list holds every score the cards can make
        # (0..36, or 0..100 to ten), right and wrong, and never depends on the right answer.
        return [dict(move) for move in SCORE_MOVES[state.variant]]

    @plays("choose", fields=("give", "op"))
    def _choose(self, state, rng, seat, move, now_ms, events):
        data = state.data
        require(data["phase"] == CHOOSE, WRONG_PHASE, "the choices are made; type your score")
        give = move.get("give")
        require(isinstance(give, dict), MALFORMED, "'give' must map each opponent to a number")
        left, right = opponents(seat)
        # Rulebook: "play two of his number cards, one on each of his opponents".
        require(
            len(give) == 2 and set(give) == {str(left), str(right)},
            BAD_RECIPIENTS,
            f"give one number to each opponent: seats {left} and {right}",
        )
        left_value, right_value = give[str(left)], give[str(right)]
        for value in (left_value, right_value):
            require(
                isinstance(value, int) and not isinstance(value, bool),
                MALFORMED,
                "a number card is a whole number",
            )
        hand = Counter(data["numbers"][seat])
        needed = Counter((left_value, right_value))
        require(
            all(hand[v] >= n for v, n in needed.items()),
            NUMBER_NOT_HELD,
            "you do not hold those number cards",
        )
        op = move.get("op")
        require(op in (ADD, MULTIPLY), MALFORMED, "'op' must be 'A' (add) or 'M' (multiply)")
        # Rulebook: "He must also play one of his operation cards on himself".
        require(op in data["operations"][seat], OPERATION_NOT_HELD, "you hold no such operation")

        data["choices"][seat] = {
            "give": {str(left): left_value, str(right): right_value},
            "op": op,
        }
        waiting = [s for s in range(PLAYERS) if data["choices"][s] is None]
        # RULINGS 5: the choice stays secret, so the event says only that the seat has chosen.
        events.append(
            {"type": "choice_made", "seat": seat, "round": data["round"], "waiting_for": waiting}
        )
        if not waiting:
            self._reveal(state, now_ms, events)

    def _reveal(self, state, now_ms, events):
        """RULINGS 5: "when all three have chosen, the choices are revealed together"."""
        data = state.data
        choices = data["choices"]
        for seat, choice in enumerate(choices):
            numbers = data["numbers"][seat]
            for value in choice["give"].values():
                numbers.remove(value)
            data["operations"][seat].remove(choice["op"])
        received = [
            [choices[g]["give"][str(seat)] for g in givers(seat)] for seat in range(PLAYERS)
        ]
        ops = [choice["op"] for choice in choices]
        scores = [round_score(*received[seat], ops[seat]) for seat in range(PLAYERS)]
        data["history"].append(
            {
                "gave": [choice["give"] for choice in choices],
                "ops": ops,
                "received": received,
                "scores": scores,
            }
        )
        data["choices"] = [None] * PLAYERS
        events.append(
            {
                "type": "choices_revealed",
                "round": data["round"],
                "plays": [
                    {
                        "seat": seat,
                        # Copies: an event must not share lists or dicts with the state.
                        "give": dict(choices[seat]["give"]),
                        "op": ops[seat],
                        "received": list(received[seat]),
                        "operator": OPERATOR_SIGN[ops[seat]],
                    }
                    for seat in range(PLAYERS)
                ],
            }
        )
        if state.options[STUDENTS_SCORE]:
            # RULINGS 5 (option "students score"): every student now types their round score.
            # The round waits for all three entries (see the rules document).
            data["phase"] = SCORE
            data["typed"] = [None] * PLAYERS
            data["since_ms"] = now_ms
            events.append(
                {"type": "awaiting_scores", "round": data["round"], "seats": list(range(PLAYERS))}
            )
        else:
            self._finish_round(state, now_ms, events)

    @plays("score", fields=("value",))
    def _score(self, state, rng, seat, move, now_ms, events):
        data = state.data
        require(state.options[STUDENTS_SCORE], STUDENTS_SCORE_OFF, "scores are not typed here")
        require(data["phase"] == SCORE, WRONG_PHASE, "choose your cards first")
        value = require_int(move, "value", 0, LARGEST_TYPED_VALUE)
        last = data["history"][-1]
        operands = last["received"][seat]
        expected = last["scores"][seat]
        data["typed"][seat] = value
        # RULINGS 5: "the entry is an attempt" (the real score counts whatever was typed).
        events.append(
            attempt_event(
                seat=seat,
                operands=list(operands),
                operator=OPERATOR_SIGN[last["ops"][seat]],
                answer=value,
                expected=expected,
                correct=value == expected,
                elapsed_ms=now_ms - data["since_ms"],
                round=data["round"],
            )
        )
        if all(entry is not None for entry in data["typed"]):
            self._finish_round(state, now_ms, events)

    def _finish_round(self, state, now_ms, events):
        data = state.data
        scores = data["history"][-1]["scores"]
        # RULINGS 5: "the real score always counts".
        data["totals"] = [
            total + score for total, score in zip(data["totals"], scores, strict=True)
        ]
        data["typed"] = [None] * PLAYERS
        events.append(
            {
                "type": "round_scored",
                "round": data["round"],
                "scores": list(scores),
                "totals": list(data["totals"]),
            }
        )
        if data["round"] == ROUNDS:
            # Rulebook: "The player with the highest score after five rounds will be declared the
            # winner"; the sixth operation card is never played (RULINGS 5); ties share.
            data["phase"] = OVER
            outcome = outcome_from_scores(data["totals"])
            events.append(
                {"type": "game_over", "totals": list(outcome.scores), "winners": outcome.winners}
            )
            return
        data["round"] += 1
        data["phase"] = CHOOSE
        data["since_ms"] = now_ms
        events.append({"type": "round_started", "round": data["round"]})

    def _tick(self, state, rng, now_ms, events):
        # No timers in this game: deadline() is always None, so the base class never calls this.
        raise AssertionError("add_or_multiply has no timers")

    # -- seeing
    def _view(self, state, seat):
        data = state.data
        phase = data["phase"]
        typed = data["typed"]
        history = data["history"]
        rounds_played = []
        for index, entry in enumerate(history):
            # While the students type, a round score shows only once its own student has typed,
            # so the view never gives the answer away (all its cards are public, though).
            pending = phase == SCORE and index == len(history) - 1
            rounds_played.append(
                {
                    "round": index + 1,
                    "plays": [
                        {
                            "seat": s,
                            "give": dict(entry["gave"][s]),
                            "op": entry["ops"][s],
                            "operator": OPERATOR_SIGN[entry["ops"][s]],
                            "received": list(entry["received"][s]),
                            "score": None if pending and typed[s] is None else entry["scores"][s],
                        }
                        for s in range(PLAYERS)
                    ],
                }
            )
        choice = data["choices"][seat] if seat is not None else None
        own_choice = None if choice is None else {"give": dict(choice["give"]), "op": choice["op"]}
        return {
            "round": data["round"],
            "rounds": ROUNDS,
            "phase": phase,
            # Public: everybody starts with the same cards and every card played is revealed, so
            # anybody can work these out (the rulebook's example lists them after each round).
            "cards_left": [
                {"numbers": list(data["numbers"][s]), "operations": list(data["operations"][s])}
                for s in range(PLAYERS)
            ],
            "chosen": [choice is not None for choice in data["choices"]],
            "my_choice": own_choice,
            "typed": list(typed) if phase == SCORE else [None] * PLAYERS,
            "totals": list(data["totals"]),
            "rounds_played": rounds_played,
        }

    def outcome(self, state):
        if state.data["phase"] != OVER:
            return None
        return outcome_from_scores(state.data["totals"])

    # -- help and bots
    def hint(self, state, seat):
        if seat not in self.active(state) or self.outcome(state) is not None:
            return None
        if state.data["phase"] == SCORE:
            return {"type": "score", "value": state.data["history"][-1]["scores"][seat]}
        # No choice is an arithmetic mistake; the hint is the strong bot's choice.
        return _strong_choice(state, seat)

    def bot_move(self, state, seat, level, rng):
        if seat not in self.active(state) or self.outcome(state) is not None:
            return None
        if level == "random":
            return rng.choice(self.legal_moves(state, seat))
        if state.data["phase"] == SCORE:
            # easy and strong both type the right score.
            return {"type": "score", "value": state.data["history"][-1]["scores"][seat]}
        if level == "easy":
            return _easy_choice(state, seat)
        return _strong_choice(state, seat)

    def bot_move_leaving(self, state, seat, level, rng, leave, people=frozenset()):
        """Focused practice with one child and two bots (docs/rules/add_or_multiply.md, "Bots in
        focused practice"): in each round both bots work out the same plan from the public state
        (``focus_gifts``) and each plays its planned number on the child, choosing the rest of
        its move (its number for the other bot, its own operation) as its level would. Without
        a plan (a table of children, no fact their cards can still make, the score phase) they
        play as without focus."""
        gifts = focus_gifts(state, leave, people)
        if gifts is None or seat not in gifts or seat not in self.active(state):
            return super().bot_move_leaving(state, seat, level, rng, leave, people)
        (child,) = people
        # How often the focus needs each number: the bot's other number spares the most needed.
        needed = Counter(number for fact in leave for number in fact[1:])
        return _choice_giving(self, state, seat, level, rng, child, gifts[seat], needed)


def focus_gifts(state, facts, people) -> dict[int, int] | None:
    """The numbers the two bots play on the child this round, {bot seat: number}, or None.

    Only with exactly one person at the table (``people``), in the choose phase. The plan reads
    only what both bots can read (the hands as at the start of the round, which are public, and
    the round), never a pending choice, so each bot computes the same plan on its own and no
    message passes between them. The facts are taken in turn, starting one further each round
    from a place the game's seed gives, and a fact the two bots' remaining cards cannot make
    (one number from each) is skipped. Pairs the child has not been given this game come first;
    among them, the likelier the child's own operation makes a focus fact of the pair, the
    sooner: a pair that is a focus fact whichever operation the child still holds (4 and 5 when
    the focus holds 4 + 5 and 4 x 5), then a fact of the operation the child holds more cards
    of, and facts whose operation card the child no longer holds last, so an "x" fact is met
    when the child can still multiply it; of pairs ranked alike, one with a 0 last while the
    child may multiply (0 x n is no table fact). With no focus fact left to give, such a child
    is given no 0 (the smallest other numbers); else None."""
    data = state.data
    people = frozenset(people)
    if data["phase"] != CHOOSE or len(people) != 1:
        return None
    (child,) = people
    if not 0 <= child < PLAYERS:
        return None
    usable = [
        (fact[0], fact[1], fact[2])
        for fact in facts
        if fact[0] in FACT_OPERATION and shows_fact(state.variant, tuple(fact))
    ]
    if not usable:
        return None
    # Each game starts the turn at its own place, from its seed (the deal draws nothing from
    # it, so it is the same all game): a child's games between them go through a focus longer
    # than a game's five rounds, where each starting at the first fact never reached the last.
    start = (data["round"] - 1 + state.rng) % len(usable)
    in_turn = usable[start:] + usable[:start]
    first, second = givers(child)
    hands = data["numbers"]
    held = data["operations"][child]
    wanted = set(usable)

    def chance_met(fact) -> float:
        """The chance that the child's operation makes a focus fact of the pair, each operation
        as likely as its share of the child's operation cards (the strong bot's estimate of a
        player's multiplying): the child chooses in secret as the bots give."""
        _operation, a, b = fact
        return sum(
            held.count(card) / len(held)
            for operation, card in FACT_OPERATION.items()
            if (operation, a, b) in wanted
        )

    # A pair the child has met this game comes after those they have not: the same fact twice in
    # one game is massed practice, and it spends the cards another fact needs.
    met = {tuple(sorted(entry["received"][child])) for entry in data["history"]}
    multiplying = MULTIPLY in held

    def rank(fact) -> tuple[bool, float, bool]:
        pair = fact[1:]
        return tuple(sorted(pair)) not in met, chance_met(fact), not (multiplying and 0 in pair)

    # Stable: in turn among the pairs ranked alike.
    for _operation, a, b in sorted(in_turn, key=rank, reverse=True):
        for mine, theirs in ((a, b), (b, a)):
            if mine in hands[first] and theirs in hands[second]:
                return {first: mine, second: theirs}
    mine, theirs = (min((n for n in hands[seat] if n), default=None) for seat in (first, second))
    return None if not multiplying or None in (mine, theirs) else {first: mine, second: theirs}


def _choice_giving(game, state, seat, level, rng, receiver, value, needed=None) -> dict:
    """The choice a bot of ``level`` makes when it must play ``value`` on ``receiver``. The easy
    and random bots play on the other bot one of the numbers the focus needs least (``needed``:
    how many times the focus facts hold each number): an easy bot that gave its smallest, its 0,
    away in the first round would leave no 0 + n fact of the child's to be played. The strong bot
    chooses by value among the choices that spare them as well."""
    needed = needed or Counter()
    if level == "random":
        moves = [
            move for move in game.legal_moves(state, seat) if move["give"][str(receiver)] == value
        ]
        other = str(next(o for o in opponents(seat) if o != receiver))
        least = min(needed[move["give"][other]] for move in moves)
        return rng.choice([move for move in moves if needed[move["give"][other]] == least])
    if level == "easy":
        return _easy_choice(state, seat, fixed=(receiver, value), needed=needed)
    return _strong_choice(state, seat, fixed=(receiver, value), needed=needed)


def _easy_choice(state, seat, fixed: tuple[int, int] | None = None, needed=None) -> dict:
    """Plain play: the two smallest numbers (smallest to the left), and the operation it holds
    more of (multiply on a tie). ``fixed``: (receiver, number) a focused bot must play; its other
    number is then the smallest of those the focus needs least (``needed``, a Counter)."""
    numbers = sorted(state.data["numbers"][seat])
    operations = state.data["operations"][seat]
    op = MULTIPLY if operations.count(MULTIPLY) >= operations.count(ADD) else ADD
    if fixed is None:
        return _choice_move(seat, numbers[0], numbers[1], op)
    receiver, value = fixed
    numbers.remove(value)
    if needed:
        numbers.sort(key=lambda number: needed[number])  # stable: the smallest of the least needed
    left, _right = opponents(seat)
    if receiver == left:
        return _choice_move(seat, value, numbers[0], op)
    return _choice_move(seat, numbers[0], value, op)


# How many rounds of evidence the strong bot wants before trusting an opponent's habit as much as
# the uniform guess.
HABIT_PRIOR_ROUNDS = 1


def _mean(values) -> float:
    return sum(values) / len(values)


def _rank_share(value: int, hand: list[int]) -> float:
    """Where ``value`` sits in ``hand``: 0 for its smallest card, 1 for its largest (mid-rank for
    repeated values), 0.5 when every card is the same."""
    if len(hand) < 2:
        return 0.5
    below = sum(1 for v in hand if v < value)
    equal = sum(1 for v in hand if v == value)
    return (below + (equal - 1) / 2) / (len(hand) - 1)


def _quantile(hand: list[int], share: float) -> float:
    ordered = sorted(hand)
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (position - low) * (ordered[high] - ordered[low])


def _expected_gift(state, giver: int, receiver: int) -> float:
    """The number ``giver`` is expected to play on ``receiver`` this round, from public facts only:
    the mean of its hand, shifted by the rank of the cards it has played on that receiver so far
    (a player who always gives one opponent its smallest cards keeps its big ones for later)."""
    data = state.data
    hand = list(NUMBERS_OF_VARIANT[state.variant])
    shares = []
    for entry in data["history"]:
        given = entry["gave"][giver]
        shares.append(_rank_share(given[str(receiver)], hand))
        for v in given.values():
            hand.remove(v)
    current = data["numbers"][giver]
    trust = len(shares) / (len(shares) + HABIT_PRIOR_ROUNDS)
    habit = _mean(shares) if shares else 0.5
    # The habit shifts the mean by how far its rank lies from the middle card, so a player with no
    # habit (ranks around one half) is expected to give the mean, even from a lopsided hand.
    return _mean(current) + trust * (_quantile(current, habit) - _quantile(current, 0.5))


def _strong_choice(state, seat, fixed: tuple[int, int] | None = None, needed=None) -> dict:
    """Expected value, from public information and its own hand only (never the others' secret
    choices). Its own score depends only on its operation card and the opponents' scores only on
    its numbers, so the two are weighed separately and added.

    Its operation: each opponent's gift this round is predicted by ``_expected_gift``, and what
    the opponents keep is what they will give later. Multiplying expects
    gift_left * gift_right, adding gift_left + gift_right; an operation card kept is worth the same
    comparison made with the later means. So it multiplies now when that beats keeping the
    multiply for later (or when it has multiplies to spare), and adds otherwise.

    Its numbers: a number v played on an opponent adds about v * slope to that opponent's score,
    where slope = P(add) + P(multiply) * (number the third player is expected to give it) and
    P(multiply) is the share of multiplies in the opponent's operation cards. Every number is
    played by the end (all but one, numbers to 10), whatever the order, so what counts is the
    placement: the larger number to the smaller slope (an opponent who will add, or whose other
    number will be small), zeros to whoever is about to multiply big numbers.

    ``fixed``: (receiver, number) a focused bot must play; the best choice that plays it and
    plays on the other opponent one of the numbers the focus needs least (``needed``, a Counter).
    """
    data = state.data
    left, right = opponents(seat)
    numbers, operations = data["numbers"], data["operations"]
    later_rounds = ROUNDS - data["round"]

    # gift[(giver, receiver)]: the number expected to be played this round.
    gift = {
        (g, r): _expected_gift(state, g, r) for g in (left, right) for r in range(PLAYERS) if r != g
    }
    now = {o: gift[(o, seat)] for o in (left, right)}
    later = {}
    for o in (left, right):
        rest = len(numbers[o]) - 2
        # Each opponent plays two numbers this round (one on each of its opponents).
        spent = gift[(o, seat)] + gift[(o, left + right - o)]
        later[o] = (sum(numbers[o]) - spent) / rest if rest else now[o]
    expected = {ADD: now[left] + now[right], MULTIPLY: now[left] * now[right]}
    later_gain = later[left] * later[right] - (later[left] + later[right])

    def operation_value(op: str) -> float:
        adds, multiplies = operations[seat].count(ADD), operations[seat].count(MULTIPLY)
        if op == ADD:
            adds -= 1
        else:
            multiplies -= 1
        # Later rounds play the better card as often as the cards kept allow.
        if later_gain > 0:
            kept_value = min(multiplies, later_rounds) * later_gain
        else:
            kept_value = (later_rounds - min(adds, later_rounds)) * later_gain
        # The tiny share of this round's value breaks ties toward banking the better card now.
        return expected[op] + kept_value + 1e-6 * expected[op]

    def slope(opponent: int, third: int) -> float:
        ops = operations[opponent]
        p_multiply = ops.count(MULTIPLY) / len(ops)
        return (1 - p_multiply) + p_multiply * gift[(third, opponent)]

    slope_left, slope_right = slope(left, right), slope(right, left)

    def numbers_value(a: int, b: int) -> float:
        # What the opponents are spared against playing both numbers at the average slope.
        return (b - a) * (slope_left - slope_right) / 2

    triples = _choice_triples(tuple(numbers[seat]), tuple(operations[seat]))
    if fixed is not None:
        receiver, number = fixed
        needed = needed or Counter()
        # The choices playing ``number`` on the receiver, each with the number on the other.
        playing = [
            (b if receiver == left else a, (a, b, op))
            for a, b, op in triples
            if (a if receiver == left else b) == number
        ]
        least = min(needed[other] for other, _triple in playing)
        triples = [triple for other, triple in playing if needed[other] == least]
    best, best_value = None, None
    for a, b, op in triples:
        value = operation_value(op) + numbers_value(a, b)
        if best_value is None or value > best_value + 1e-9:
            best, best_value = (a, b, op), value
    return _choice_move(seat, *best)


GAME = AddOrMultiply()
