"""Student secrets as the roster handles them: generated, read from what a teacher types (or a
CSV holds), described for pages and cards, and sealed so that a card can be printed again."""

import base64
import itertools
import re
import secrets
import unicodedata
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from accounts import digits
from accounts.models import SecretKind, canonical_secret
from accounts.pictures import PICTURE_SEQUENCE_LENGTH, PICTURES
from accounts.secret_hashing import secret_fingerprint

GENERATED_PIN_DIGITS = 4
GENERATED_PICTURES = 3
_SEAL_SALT = "classroom.roster.login-card"


@dataclass(frozen=True)
class Secret:
    """A secret in the clear, as the teacher gave it or as it was generated: ``value`` is the
    canonical spelling without its kind ("1234", "cat-sun-star")."""

    kind: str
    value: str

    @property
    def is_pin(self) -> bool:
        return self.kind == SecretKind.PIN

    @property
    def pictures(self) -> list[tuple[str, str, str]]:
        """(key, emoji, label in the active language) of each picture, in order."""
        if self.is_pin:
            return []
        return [(key, PICTURES[key][0], str(PICTURES[key][1])) for key in self.value.split("-")]

    def spoken(self) -> str:
        """The secret as words, for a page or a card: "1234" or "cat, sun, star"."""
        if self.is_pin:
            return self.value
        return ", ".join(label for _key, _emoji, label in self.pictures)


def _too_easy(pin: str) -> bool:
    steps = {int(b) - int(a) for a, b in itertools.pairwise(pin)}
    return len(steps) == 1 and steps <= {-1, 0, 1}  # 1111, 1234, 4321


def generate_secret(kind: str) -> Secret:
    if kind == SecretKind.PIN:
        while True:
            pin = "".join(secrets.choice("0123456789") for _ in range(GENERATED_PIN_DIGITS))
            if not _too_easy(pin):
                return Secret(SecretKind.PIN, pin)
    # Distinct pictures: a child remembers "cat, sun, star" more easily than "cat, cat, sun".
    keys = secrets.SystemRandom().sample(sorted(PICTURES), GENERATED_PICTURES)
    return Secret(SecretKind.PICTURE, "-".join(keys))


def fold_word(word: str) -> str:
    """Case and accents do not matter: "Árbol", "arbol" and "ÁRBOL" are one picture."""
    decomposed = unicodedata.normalize("NFKD", word.replace("\ufe0f", "").casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _picture_words() -> dict[str, str]:
    """Every way a teacher may name a picture: its key, its emoji, its label in each language."""
    words = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for key, (_emoji, label) in PICTURES.items():
                words[fold_word(str(label))] = key
    for key, (emoji, _label) in PICTURES.items():
        words[fold_word(key)] = key
        words[fold_word(emoji)] = key
    return words


def guess_kind(text: str) -> str:
    """Digits are a PIN; anything else names pictures."""
    return SecretKind.PIN if re.fullmatch(r"[\d\s]+", text) else SecretKind.PICTURE


def parse_secret(kind: str, text: str) -> Secret:
    """The secret a teacher typed: a PIN, or picture names (or emoji) separated by spaces, commas
    or dashes, in English or Spanish. Raises ValidationError with a message for the teacher."""
    text = (text or "").strip()
    if kind == SecretKind.PIN:
        value = digits.western(re.sub(r"\s+", "", text))  # "٧٣٥٨" is 7358
        canonical_secret(SecretKind.PIN, value)
        return Secret(SecretKind.PIN, value)
    if kind != SecretKind.PICTURE:
        raise ValidationError(_("Unknown kind of secret."))
    words = _picture_words()
    keys, unknown = [], []
    for token in re.split(r"[\s,;+/·\-]+", text):
        if token:
            key = words.get(fold_word(token))
            (keys if key else unknown).append(key or token)
    if unknown:
        raise ValidationError(
            _("Unknown picture: %(words)s. The pictures are: %(pictures)s.")
            % {"words": ", ".join(unknown), "pictures": picture_names()}
        )
    lo, hi = PICTURE_SEQUENCE_LENGTH
    if not lo <= len(keys) <= hi:
        raise ValidationError(
            _("A picture password is %(lo)s to %(hi)s pictures.") % {"lo": lo, "hi": hi}
        )
    return Secret(SecretKind.PICTURE, "-".join(keys))


def picture_names() -> str:
    return ", ".join(str(label) for _emoji, label in PICTURES.values())


# --- the sealed copy a card is printed from -------------------------------------------------------


def _fernets() -> list[Fernet]:
    # One key per SECRET_KEY (fallbacks included), so rotating SECRET_KEY the documented way
    # leaves the copies readable.
    keys = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    return [
        Fernet(
            base64.urlsafe_b64encode(
                salted_hmac(_SEAL_SALT, "fernet", secret=key, algorithm="sha256").digest()
            )
        )
        for key in keys
    ]


def _fernet() -> MultiFernet:
    return MultiFernet(_fernets())


def seal(secret: Secret) -> str:
    return _fernet().encrypt(f"{secret.kind}:{secret.value}".encode()).decode()


def seal_again(sealed: str) -> str | None:
    """The copy sealed under the current SECRET_KEY (``sealed`` itself when it is), or None when
    no key in force reads it."""
    try:
        _fernets()[0].decrypt(sealed.encode())
        return sealed
    except InvalidToken:
        pass
    try:
        return _fernet().rotate(sealed.encode()).decode()
    except InvalidToken:
        return None


def unseal(sealed: str) -> Secret | None:
    """The secret in the clear, or None when the copy cannot be read (SECRET_KEY replaced)."""
    try:
        kind, _sep, value = _fernet().decrypt(sealed.encode()).decode().partition(":")
    except (InvalidToken, ValueError):
        return None
    return Secret(kind, value)


def secret_tag(secret_hash: str) -> str:
    """A fingerprint of the account's secret (accounts.secret_hashing): it changes whenever the
    secret is set again, not when its hash moves to a new kind, and helps guess nothing."""
    return secret_fingerprint(secret_hash)
