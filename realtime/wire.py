"""Reading what a client sends over a socket, before anything else looks at it.

A message is a JSON object of at most a few kilobytes, nested a few levels at most, whose every
string (keys included) is text a database can store. Anything else is refused with a code and
the socket stays open: a NUL character (PostgreSQL's text types refuse it), a lone surrogate such
as ``"\\ud800"`` (JSON allows the escape, UTF-8 cannot encode it), NaN or Infinity (not JSON),
nesting deep enough to exhaust the parser's recursion. Each of these once reached the move's
transaction and ended there with a traceback and a closed socket.
"""

from __future__ import annotations

import json
import math

MAX_DEPTH = 8  # a move is an object holding lists of numbers, at most a few levels deep


class Refused(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def read_message(text_data: str | None, *, max_bytes: int) -> dict:
    """The message as a dict, or ``Refused``."""
    if text_data is None:
        raise Refused("malformed", "messages are JSON text")
    # Bytes, as they crossed the wire (a letter of Spanish is two, an emoji four); a text too long
    # in characters is too long in bytes and is not encoded to be measured. A lone surrogate
    # (refused below) is counted as the three bytes it came as.
    if len(text_data) > max_bytes or len(text_data.encode("utf-8", "surrogatepass")) > max_bytes:
        raise Refused("too_large", f"messages are at most {max_bytes} bytes")
    try:
        message = json.loads(text_data, parse_constant=_not_json)
    except (ValueError, RecursionError):
        raise Refused("malformed", "messages are JSON objects") from None
    if not isinstance(message, dict):
        raise Refused("malformed", "messages are JSON objects")
    _check(message, 0)
    return message


def _not_json(name: str):
    raise ValueError(f"{name} is not JSON")


def _check(value, depth: int) -> None:
    if isinstance(value, str):
        _check_text(value)
    elif isinstance(value, dict | list):
        if depth >= MAX_DEPTH:
            raise Refused("malformed", f"messages are nested at most {MAX_DEPTH} deep")
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key)
                _check(item, depth + 1)
        else:
            for item in value:
                _check(item, depth + 1)
    elif isinstance(value, float) and not math.isfinite(value):
        raise Refused("malformed", "numbers are finite")


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise Refused("malformed", "text may not contain NUL characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused("malformed", "text must be valid Unicode (no lone surrogates)") from None
