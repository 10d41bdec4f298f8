"""The teacher's "new session" form, built from what the engine describes: every game's variants,
each with its own options. All variants' option fields are on the page (a script shows only the
chosen one's); only the chosen variant's fields count, and the engine has the last word."""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

import engine
from classroom import bots
from classroom.models import PROJECTOR_TOP_CHOICES, ProjectorNames, TeamMode
from games import catalog

DEFAULT_TABLE_SIZE = 4


def variant_key(game: str, variant: str) -> str:
    return f"{game}:{variant}"


def option_field_name(game: str, variant: str, option: str) -> str:
    return f"opt__{game}__{variant}__{option}"


def _players_text(low: int, high: int) -> str:
    if high == 1:
        return str(_("solo: one player per table"))
    if low == high:
        return str(_("exactly %(count)s players") % {"count": high})
    return str(_("%(low)s to %(high)s players") % {"low": low, "high": high})


def _option_field(game: str, option: dict) -> forms.Field:
    label = catalog.option_label(option["name"], option["help"])
    if option["kind"] == "bool":
        return forms.BooleanField(label=label, required=False, initial=option["default"])
    if option["kind"] == "int":
        return forms.IntegerField(
            label=label,
            required=False,
            initial=option["default"],
            min_value=option["minimum"],
            max_value=option["maximum"],
        )
    return forms.ChoiceField(
        label=label,
        required=False,
        initial=option["default"],
        choices=[(c, catalog.choice_label(option["name"], c)) for c in option["choices"]],
    )


def projector_top_choices() -> list[tuple[int, str]]:
    return [
        (top, _("The top %(count)s") % {"count": top} if top else _("Everyone with points"))
        for top in PROJECTOR_TOP_CHOICES
    ]


class ProjectorForm(forms.Form):
    """What the class sees on the projector: how children are named, how many places."""

    projector_names = forms.ChoiceField(
        label=_("Names on the projector"),
        choices=ProjectorNames.choices,
        initial=ProjectorNames.FIRST,
        widget=forms.RadioSelect,
        help_text=_(
            "For every child on the projector; a child set to initials or not shown stays so."
        ),
    )
    projector_top = forms.TypedChoiceField(
        label=_("Leaderboard on the projector"),
        choices=projector_top_choices,
        coerce=int,
        initial=10,
        widget=forms.RadioSelect,
        help_text=_("Children with no points yet are never ranked."),
    )


class SessionCreateForm(ProjectorForm):
    """A new session; the projector's choices may be left out (their defaults then)."""

    def clean_projector_names(self):
        return self.cleaned_data.get("projector_names") or ProjectorNames.FIRST

    def clean_projector_top(self):
        top = self.cleaned_data.get("projector_top")
        return 10 if top in (None, "") else top

    variant = forms.ChoiceField(label=_("Game and variant"))
    table_size = forms.IntegerField(
        label=_("Players per table"),
        min_value=1,
        max_value=12,
        initial=DEFAULT_TABLE_SIZE,
        help_text=_("Students are dealt to tables of this size; empty seats are taken by bots."),
    )
    bot_level = forms.ChoiceField(
        label=_("Bots' level"),
        initial="easy",
        choices=bots.session_level_choices,
        help_text=format_lazy("{} {}", bots.LEVEL_HELP, bots.AT_TABLE_LEVEL_HELP),
    )
    team_mode = forms.ChoiceField(
        label=_("How the class scores"),
        initial=TeamMode.NONE,
        choices=TeamMode.choices,
        widget=forms.RadioSelect,
        required=False,
        help_text=_(
            "With teams, the projector shows each table's total or the class's total against the "
            "bots instead of ranking the children."
        ),
    )

    def clean_team_mode(self) -> str:
        return self.cleaned_data["team_mode"] or TeamMode.NONE

    def __init__(self, *args, preset=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["projector_names"].required = False
        self.fields["projector_top"].required = False
        self.variants: list[dict] = []
        groups = []
        for game in engine.list_games():
            described = game.describe()
            slug = described["slug"]
            choices = []
            for name, variant in described["variants"].items():
                key = variant_key(slug, name)
                title = catalog.variant_title(slug, name)
                players = _players_text(variant["min_players"], variant["max_players"])
                choices.append((key, f"{title} ({players})"))
                fields = []
                for option in variant["options"]:
                    field_name = option_field_name(slug, name, option["name"])
                    self.fields[field_name] = _option_field(slug, option)
                    fields.append((option["name"], field_name))
                self.variants.append(
                    {
                        "key": key,
                        "game": slug,
                        "variant": name,
                        "title": catalog.game_and_variant_title(slug, name),
                        "players": players,
                        "min_players": variant["min_players"],
                        "max_players": variant["max_players"],
                        "option_fields": fields,
                    }
                )
            groups.append((catalog.game_title(slug), choices))
        self.fields["variant"].choices = groups
        if preset:
            self._preset(preset)

    def _preset(self, query) -> None:
        """The game, variant and options the page's address sets (``?variant=mia:express&
        opt__mia__express__calm=true``): a learning platform's link to a game opens the form so
        (docs/lti.md). Only the form's own fields; an option's value as its field reads it."""
        for name, value in query.items():
            if name == "variant" or (name.startswith("opt__") and name in self.fields):
                field = self.fields[name]
                self.initial[name] = (
                    value == "true" if isinstance(field, forms.BooleanField) else value
                )

    def option_groups(self):
        """Per variant: its key, title, player range and bound option fields (for the template)."""
        return [
            {**variant, "bound_fields": [self[name] for _option, name in variant["option_fields"]]}
            for variant in self.variants
        ]

    def chosen(self) -> dict | None:
        key = self.cleaned_data.get("variant")
        return next((v for v in self.variants if v["key"] == key), None)

    def clean(self):
        cleaned = super().clean()
        chosen = self.chosen()
        if chosen is None:
            return cleaned
        # Other variants' fields were on the page but do not count, nor do their errors.
        mine = {name for _option, name in chosen["option_fields"]}
        for variant in self.variants:
            for _option, name in variant["option_fields"]:
                if name not in mine:
                    self.errors.pop(name, None)
        if chosen["max_players"] == 1:
            cleaned["table_size"] = 1  # solo variants: a table per student, whatever was typed
            self.errors.pop("table_size", None)
        options = {}
        for option, name in chosen["option_fields"]:
            value = cleaned.get(name)
            if value is not None and value != "":
                options[option] = value
        cleaned["game"] = chosen["game"]
        cleaned["variant_name"] = chosen["variant"]
        cleaned["options"] = options
        return cleaned

    def add_engine_error(self, error: engine.SetupError) -> None:
        """The engine refused the set-up: say so next to the field it concerns."""
        chosen = self.chosen() or {}
        if error.code == "bad_players":
            self.add_error(
                "table_size",
                _("%(title)s is played by %(players)s.")
                % {"title": chosen.get("title", ""), "players": chosen.get("players", "")},
            )
        elif error.code in {"bad_option", "unknown_option"}:
            self.add_error(
                None,
                _("The game refused an option: %(message)s") % {"message": error.message},
            )
        else:
            self.add_error(
                "variant", _("This game cannot be set up: %(message)s") % {"message": error.message}
            )
