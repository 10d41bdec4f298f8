"""The assignment form: one page for both kinds. The engine is the judge of games, variants, seats
and options; the form only turns its refusals into sentences a teacher can act on."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import engine
from classroom import bots
from classroom.homework import titles
from classroom.homework.selectors import minutes_asked
from classroom.homework.services import (
    MAX_ITEMS,
    BotGamesSpec,
    PuzzleSpec,
    default_puzzle_game,
    puzzle_games,
    puzzles_of,
    spec_check,
)
from classroom.models import Assignment
from classroom.practice.forms import MAX_FACTS, fact_value, parse_fact
from classroom.practice.services import MAX_MINUTES, MIN_MINUTES
from classroom.practice.working_set import NUMBERS
from games import catalog

OPTION_PREFIX = "option_"
DIFFICULTY_LABELS = {
    1: _("1 — gentle"),
    2: "2",
    3: _("3 — medium"),
    4: "4",
    5: _("5 — tricky"),
}
YES_NO = {True: _("Yes"), False: _("No")}


def table_variants() -> list[tuple[str, str, engine.Variant]]:
    """(game, variant, spec) of every variant that seats bots beside a student."""
    return [
        (game.slug, name, variant)
        for game in engine.list_games()
        for name, variant in game.variants.items()
        if variant.max_players >= 2
    ]


def variant_key(game: str, variant: str) -> str:
    return f"{game}:{variant}"


def _variant_choices():
    groups: dict[str, list] = {}
    for game, name, _variant in table_variants():
        groups.setdefault(game, []).append(
            (variant_key(game, name), catalog.variant_title(game, name))
        )
    return [(catalog.game_title(game), choices) for game, choices in groups.items()]


def _puzzle_game_choices():
    return [(game.slug, catalog.game_title(game.slug)) for game in puzzle_games()]


def _size_choices():
    """Each puzzle game's sizes, named by their variants' titles; grouped by game when more than
    one game offers puzzles (the game field says which game's size is meant)."""
    groups = [
        (
            catalog.game_title(game.slug),
            [
                (size, catalog.variant_title(game.slug, variant))
                for size, variant in game.puzzles.sizes.items()
            ],
        )
        for game in puzzle_games()
    ]
    return groups[0][1] if len(groups) == 1 else groups


def _options() -> dict[str, tuple[engine.Option, list[str]]]:
    """Each option name once (its meaning is the same wherever it appears), with the variants
    that offer it."""
    found: dict[str, tuple[engine.Option, list[str]]] = {}
    for game, name, variant in table_variants():
        for option in variant.options.values():
            found.setdefault(option.name, (option, []))[1].append(variant_key(game, name))
    return found


def _option_field(option: engine.Option) -> forms.Field:
    label = catalog.option_label(option.name, option.help)
    if option.kind == "int":
        return forms.IntegerField(
            label=label,
            required=False,
            min_value=option.minimum,
            max_value=option.maximum,
            help_text=_("Leave empty for the game's usual %(value)s.") % {"value": option.default},
        )
    if option.kind == "bool":
        choices = [
            ("", _("As the game usually plays (%(value)s)") % {"value": YES_NO[option.default]})
        ]
        choices += [("yes", YES_NO[True]), ("no", YES_NO[False])]
    else:
        default = catalog.choice_label(option.name, option.default)
        choices = [("", _("As the game usually plays (%(value)s)") % {"value": default})]
        choices += [(c, catalog.choice_label(option.name, c)) for c in option.choices]
    return forms.ChoiceField(label=label, required=False, choices=choices)


def _option_value(option: engine.Option, raw):
    if raw in (None, ""):
        return None
    if option.kind == "bool":
        return raw == "yes"
    return raw


DEFAULT_DUE_IN_DAYS = 7
DEFAULT_DUE_HOUR = 17


def default_due():
    """A week from today at the end of the school day, in the site's time zone: what a new
    homework's form offers (a teacher changes it in one tap if the class's week differs)."""
    later = timezone.localtime() + timedelta(days=DEFAULT_DUE_IN_DAYS)
    return later.replace(hour=DEFAULT_DUE_HOUR, minute=0, second=0, microsecond=0)


class DueInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self):
        super().__init__(format="%Y-%m-%dT%H:%M")


class AssignmentForm(forms.Form):
    CONTENT_FIELDS = (
        "kind",
        "puzzle_game",
        "size",
        "difficulty",
        "variant",
        "players",
        "bot_level",
        "count",
    )

    title = forms.CharField(label=_("Title"), max_length=120)
    kind = forms.ChoiceField(
        label=_("What to play"),
        # Personal practice has its own form (PersonalAssignmentForm).
        choices=[c for c in Assignment.Kind.choices if c[0] != Assignment.Kind.PERSONAL],
        widget=forms.RadioSelect,
        initial=Assignment.Kind.PUZZLES,
    )
    due_at = forms.DateTimeField(label=_("Due"), widget=DueInput(), initial=default_due)
    count = forms.IntegerField(
        label=_("How many puzzles or games"), min_value=1, max_value=MAX_ITEMS, initial=3
    )
    # Solo puzzles: of which game (the first that has puzzles when not said), and their size
    puzzle_game = forms.ChoiceField(
        label=_("Game"), required=False, choices=_puzzle_game_choices, initial=default_puzzle_game
    )
    size = forms.TypedChoiceField(
        label=_("Size"),
        coerce=int,
        required=False,
        choices=_size_choices,
        initial=3,
    )
    difficulty = forms.TypedChoiceField(
        label=_("Difficulty"),
        coerce=int,
        required=False,
        choices=list(DIFFICULTY_LABELS.items()),
        initial=2,
    )
    # Games against bots
    variant = forms.ChoiceField(label=_("Game"), required=False, choices=_variant_choices)
    players = forms.IntegerField(
        label=_("Players at each game, the student included"),
        required=False,
        min_value=2,
        max_value=6,
        initial=3,
    )
    bot_level = forms.ChoiceField(
        label=_("Bots' level"),
        required=False,
        choices=bots.homework_level_choices,
        initial=bots.ADAPTIVE,
        help_text=bots.ADAPTIVE_HELP,
    )

    def __init__(self, *args, assignment: Assignment | None = None, locked: bool = False, **kw):
        if assignment is not None:
            kw.setdefault("initial", initial_of(assignment))
        super().__init__(*args, **kw)
        if len(puzzle_games()) <= 1:
            # One game offers puzzles: its sizes name it, the page need not ask.
            self.fields["puzzle_game"].widget = forms.HiddenInput()
        self.option_specs = _options()
        for name, (option, _variants) in self.option_specs.items():
            self.fields[OPTION_PREFIX + name] = _option_field(option)
        self.locked = locked
        if locked:
            # Students have begun: what they play stays as it was (disabled fields keep their
            # initial values whatever is posted).
            for name in (*self.CONTENT_FIELDS, *self.option_field_names()):
                self.fields[name].disabled = True

    @property
    def puzzle_game_title(self) -> str:
        """The title of the one game with puzzles (the legend names it), "" when several have."""
        games = puzzle_games()
        return catalog.game_title(games[0].slug) if len(games) == 1 else ""

    def option_field_names(self) -> list[str]:
        return [OPTION_PREFIX + name for name in self.option_specs]

    def option_fields(self):
        """The option fields with the variants each applies to (the page shows only those of
        the chosen game)."""
        return [
            (self[OPTION_PREFIX + name], " ".join(variants))
            for name, (_option, variants) in self.option_specs.items()
        ]

    def clean_title(self):
        title = self.cleaned_data["title"].strip()
        if not title:
            raise forms.ValidationError(_("Give the homework a title."))
        return title

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        count = data.get("count")
        if kind is None or count is None:
            return data
        if kind == Assignment.Kind.PUZZLES:
            spec = self._puzzle_spec(data, count)
        else:
            spec = self._games_spec(data, count)
        if spec is None:
            return data
        try:
            spec_check(spec)
        except engine.SetupError as error:
            raise forms.ValidationError(
                _("The game cannot be set up like this: %(reason)s") % {"reason": error.message}
            ) from error
        data["spec"] = spec
        return data

    def _puzzle_spec(self, data, count) -> PuzzleSpec | None:
        for name in ("size", "difficulty"):
            if data.get(name) in (None, ""):
                self.add_error(name, _("Choose one."))
        if self.errors:
            return None
        game = data.get("puzzle_game") or default_puzzle_game()
        return PuzzleSpec(size=data["size"], difficulty=data["difficulty"], count=count, game=game)

    def _games_spec(self, data, count) -> BotGamesSpec | None:
        for name in ("variant", "players", "bot_level"):
            if data.get(name) in (None, ""):
                self.add_error(name, _("Choose one."))
        if self.errors:
            return None
        game, variant_name = data["variant"].split(":", 1)
        variant = engine.get_game(game).variants[variant_name]
        players = data["players"]
        if not variant.min_players <= players <= variant.max_players:
            self.add_error(
                "players",
                _("%(game)s takes %(low)s to %(high)s players.")
                % {
                    "game": catalog.variant_title(game, variant_name),
                    "low": variant.min_players,
                    "high": variant.max_players,
                },
            )
            return None
        options = {}
        for name, option in variant.options.items():
            value = _option_value(option, data.get(OPTION_PREFIX + name))
            if value is not None:
                options[name] = value
        return BotGamesSpec(
            game=game,
            variant=variant_name,
            players=players,
            bot_level=data["bot_level"],
            count=count,
            options=options,
        )


def initial_of(assignment: Assignment) -> dict:
    initial = {
        "title": assignment.title,
        "kind": assignment.kind,
        "due_at": timezone.localtime(assignment.due_at),
        "count": len(assignment.items),
    }
    if assignment.kind == Assignment.Kind.PUZZLES:
        puzzles = puzzles_of(assignment.game)
        initial["puzzle_game"] = assignment.game
        initial["size"] = puzzles.size_of(assignment.variant) if puzzles is not None else None
        initial["difficulty"] = assignment.difficulty
    else:
        initial["variant"] = variant_key(assignment.game, assignment.variant)
        initial["players"] = assignment.players
        initial["bot_level"] = assignment.bot_level
        for name, value in assignment.options.items():
            if isinstance(value, bool):
                value = "yes" if value else "no"
            initial[OPTION_PREFIX + name] = value
    return initial


def _personal_choices():
    from classroom.practice.services import choices

    return [(c.key, c.label) for c in choices()]


def _all_personal_choices():
    return [key for key, _label in _personal_choices()]


class PersonalAssignmentForm(forms.Form):
    """Personal practice: each child's own items toward their own facts (classroom.practice), or
    toward the facts a teacher chose on a progress page ("Practise these facts": ``facts``). Once
    set, its games, number of items or minutes and bots' level change until a child has begun
    (``locked``: then only its title and due date); its children and facts stay."""

    CONTENT_FIELDS = ("games", "count", "minutes", "bot_level")

    title = forms.CharField(label=_("Title"), max_length=120, initial=_("Personal practice"))
    due_at = forms.DateTimeField(label=_("Due"), widget=DueInput(), initial=default_due)
    games = forms.MultipleChoiceField(
        label=_("Games the children may get"),
        choices=_personal_choices,
        widget=forms.CheckboxSelectMultiple,
        initial=_all_personal_choices,
        help_text=_(
            "Only games that can deal toward a child's facts are offered. Each child gets more "
            "of the games with more facts left to teach them."
        ),
    )
    count = forms.IntegerField(
        label=_("How many games or puzzles for each child"),
        min_value=1,
        max_value=MAX_ITEMS,
        initial=3,
        required=False,
    )
    minutes = forms.IntegerField(
        label=_("Or minutes of play for each child"),
        min_value=MIN_MINUTES,
        max_value=MAX_MINUTES,
        required=False,
        help_text=_(
            "Each child plays their own games or puzzles until they have played this long: a "
            "slower child after fewer. Leave it empty to give a number of games or puzzles."
        ),
    )
    bot_level = forms.ChoiceField(
        label=_("Bots' level"),
        choices=bots.homework_level_choices,
        initial=bots.ADAPTIVE,
        help_text=bots.ADAPTIVE_HELP,
    )
    students = forms.MultipleChoiceField(
        label=_("Students"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Choose none for the whole class."),
    )
    # The facts chosen on a progress page, carried from it (none: each child's working set).
    facts = forms.MultipleChoiceField(required=False, widget=forms.MultipleHiddenInput)

    def __init__(
        self,
        *args,
        roster=(),
        assignment: Assignment | None = None,
        locked: bool = False,
        **kw,
    ):
        if assignment is not None:
            minutes = minutes_asked(assignment)
            kw.setdefault(
                "initial",
                {
                    "title": assignment.title,
                    "due_at": timezone.localtime(assignment.due_at),
                    "games": assignment.options.get("allowed", []),
                    "count": None if minutes else len(assignment.items),
                    "minutes": minutes,
                    "bot_level": assignment.bot_level,
                },
            )
        super().__init__(*args, **kw)
        self.assignment = assignment
        self.locked = locked
        self.fields["students"].choices = [(str(s.pk), str(s)) for s in roster]
        self.fields["facts"].choices = [
            (fact_value(operation, a, b), "")
            for operation, numbers in NUMBERS.items()
            for a in numbers
            for b in numbers
        ]
        if assignment is not None:
            # Each child and their facts were chosen when the practice was set.
            for name in ("students", "facts"):
                self.fields[name].disabled = True
        if locked:
            for name in self.CONTENT_FIELDS:
                self.fields[name].disabled = True
                self.fields[name].required = False
        if assignment is None and self.chosen_facts():
            self.fields["title"].initial = str(titles.practise_facts(self.chosen_facts()))

    def chosen_facts(self) -> list[tuple[str, int, int]]:
        """The facts the form carries, as the page was asked for them (valid ones only)."""
        values = (
            self.data.getlist("facts")
            if self.is_bound and hasattr(self.data, "getlist")
            else self.initial.get("facts", [])
        )
        facts = [fact for value in values if (fact := parse_fact(value)) is not None]
        return list(dict.fromkeys(facts))[:MAX_FACTS]

    def offered_title(self) -> titles.PlatformTitle:
        """The platform's title the form offers: the facts' practice, or personal practice."""
        facts = self.chosen_facts()
        return titles.practise_facts(facts) if facts else titles.PERSONAL_PRACTICE_TITLE

    def clean_title(self):
        title = self.cleaned_data["title"].strip()
        if not title:
            raise forms.ValidationError(_("Give the homework a title."))
        if self.assignment is None and title == str(self.offered_title()):
            # The title the form offered: the platform's, worded for each reader.
            return self.offered_title()
        return title

    def clean_students(self):
        return [int(pk) for pk in self.cleaned_data["students"]] or None

    def clean_facts(self):
        return self.chosen_facts() or None

    def clean(self):
        data = super().clean()
        if not self.locked and data.get("count") is None and data.get("minutes") is None:
            self.add_error("count", _("Give a number of games or puzzles, or minutes."))
        return data
