from django import forms
from django.utils.translation import gettext_lazy as _

import engine
from accounts import digits
from accounts.models import time_zone_names
from accounts.pictures import PICTURES
from classroom import bots, selectors
from classroom.models import CLASS_CODE_LENGTH
from games import catalog


class ClassCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Class code"),
        max_length=CLASS_CODE_LENGTH + 4,  # room for a space or dash the child may type
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "autofocus": True,
                "class": "code-input",
            }
        ),
    )


class StudentSecretForm(forms.Form):
    """The secret as the page sends it: PIN digits, or picture keys joined by dashes."""

    secret = forms.CharField(max_length=64, strip=True)

    def __init__(self, *args, secret_kind: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.secret_kind = secret_kind
        if secret_kind == "pin":
            self.fields["secret"].label = _("Your PIN")
            self.fields["secret"].widget = forms.PasswordInput(
                attrs={"inputmode": "numeric", "autocomplete": "off", "autofocus": True}
            )
        else:
            self.fields["secret"].label = _("Your picture password")
            self.fields["secret"].widget = forms.HiddenInput()


class ClassroomCreateForm(forms.Form):
    name = forms.CharField(label=_("Class name"), max_length=80)


def picture_choices():
    return [(key, emoji, label) for key, (emoji, label) in PICTURES.items()]


def variant_choices():
    """Every game's variants, grouped by game, as ``"game:variant"`` values."""
    return [
        (
            catalog.game_title(game.slug),
            [
                (f"{game.slug}:{name}", catalog.variant_title(game.slug, name))
                for name in game.variants
            ],
        )
        for game in engine.list_games()
    ]


def parse_variant(value: str):
    """``"mia:express"`` -> ("mia", "express"), or None when no such game or variant exists."""
    game, _sep, variant = (value or "").partition(":")
    if not engine.is_game(game):
        return None
    if variant not in engine.get_game(game).variants:
        return None
    return game, variant


class VariantPickForm(forms.Form):
    """The first step of a single table: the game, and the class whose students will sit at it
    (a teacher with one class is not asked)."""

    variant = forms.ChoiceField(label=_("Game"), choices=variant_choices)
    classroom = forms.ChoiceField(label=_("Class"))

    def __init__(self, *args, classrooms, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["classroom"].choices = [(str(c.pk), c.name) for c in classrooms]
        if len(classrooms) == 1:
            self.fields["classroom"].widget = forms.HiddenInput()
            self.fields["classroom"].initial = str(classrooms[0].pk)


def _option_field(option) -> forms.Field:
    label = catalog.option_label(option.name, option.help)
    if option.kind == "bool":
        return forms.BooleanField(label=label, required=False, initial=option.default)
    if option.kind == "choice":
        return forms.ChoiceField(
            label=label,
            initial=option.default,
            choices=[
                (choice, catalog.choice_label(option.name, choice)) for choice in option.choices
            ],
        )
    # No min/max validators here: the engine judges the value (and says why on the form); the
    # widget only tells the browser the range.
    attrs = {"min": option.minimum, "max": option.maximum}
    return forms.IntegerField(
        label=label,
        initial=option.default,
        widget=forms.NumberInput(attrs={k: v for k, v in attrs.items() if v is not None}),
    )


class MatchCreateForm(forms.Form):
    """A new match of one variant: its options (from the engine's description), who sits at each
    seat (students of the chosen class, or bots), and a name for the table."""

    label = forms.CharField(label=_("Name of the table (optional)"), max_length=80, required=False)

    def __init__(self, *args, classroom, game: str, variant: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.variant = variant
        self.spec = engine.get_game(game).variants[variant]
        self.option_names = list(self.spec.options)
        for option in self.spec.options.values():
            self.fields[f"option_{option.name}"] = _option_field(option)
        roster = [
            enrollment.student for enrollment in selectors.classroom_roster(classroom=classroom)
        ]
        self.students = {str(student.pk): student for student in roster}
        seat_choices = [
            ("", _("Nobody")),
            (classroom.name, [(f"student:{s.pk}", str(s)) for s in roster]),
            (
                _("Bots"),
                [
                    (f"bot:{level}", _("Bot: %(level)s") % {"level": label})
                    for level, label in bots.level_choices()
                ],
            ),
        ]
        for index in range(self.spec.max_players):
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label=_("Seat %(number)s") % {"number": index + 1},
                choices=seat_choices,
                required=False,
            )

    @property
    def option_fields(self):
        return [self[f"option_{name}"] for name in self.option_names]

    @property
    def seat_fields(self):
        return [self[f"seat_{index}"] for index in range(self.spec.max_players)]

    def clean(self):
        cleaned = super().clean()
        options = {}
        for name, option in self.spec.options.items():
            key = f"option_{name}"
            if key not in cleaned:
                continue
            try:
                options[name] = option.validate(cleaned[key])
            except engine.SetupError:
                if option.kind == "int":
                    message = _("Choose a whole number from %(min)s to %(max)s.") % {
                        "min": option.minimum,
                        "max": option.maximum,
                    }
                else:
                    message = _("This value does not work for this game.")
                self.add_error(key, message)
        seats = []
        chosen = set()
        for index in range(self.spec.max_players):
            value = cleaned.get(f"seat_{index}") or ""
            if not value:
                continue
            if value.startswith("student:"):
                if value in chosen:
                    self.add_error(
                        f"seat_{index}", _("This student already has a seat at this table.")
                    )
                    continue
                chosen.add(value)
                seats.append(("student", self.students[value.split(":", 1)[1]]))
            else:
                seats.append(("bot", value.split(":", 1)[1]))
        if not any(kind == "student" for kind, _who in seats):
            self.add_error(None, _("Seat at least one student."))
        elif not self.spec.min_players <= len(seats) <= self.spec.max_players:
            self.add_error(
                None,
                _("This game takes %(min)s to %(max)s players.")
                % {"min": self.spec.min_players, "max": self.spec.max_players},
            )
        cleaned["options"] = options
        cleaned["seats"] = seats
        return cleaned


class TeacherTimeZoneForm(forms.Form):
    time_zone = forms.ChoiceField(
        label=_("Time zone of your school"),
        help_text=_(
            "Your students' answers are counted by day and week in this zone: an answer at "
            "00:30 belongs to the day that has just begun there."
        ),
    )

    digits = forms.ChoiceField(
        label=_("Digits on pages in Arabic"),
        choices=digits.CHOICES,
        widget=forms.RadioSelect,
        # A form sent without it (a zone changed from an older page, a script) keeps the choice.
        required=False,
        help_text=_(
            "Numbers on your pages and your students' pages in Arabic are shown in these digits. "
            "Children may type either."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(name, name) for name in time_zone_names()]
