"""Decks and boards shipped with the engine (copies of shared/data, so the package stands alone)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

_DATA = Path(__file__).with_name("data")


@cache
def load(name: str):
    with open(_DATA / f"{name}.json", encoding="utf-8") as f:
        return json.load(f)
