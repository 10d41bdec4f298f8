"""Printable login cards: a PDF with one card per student, each with a QR code of a sign-in URL.

The URL carries a signed token naming the student and a fingerprint of their secret's hash, so a
card stops working as soon as the student's secret is set again or the student is deleted."""

import io
from dataclasses import dataclass

import segno
from django.contrib.auth import get_user_model
from django.core import signing
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from reportlab.graphics import renderPDF
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from accounts.bidi import held
from accounts.models import Role
from accounts.pictures import picture_drawing
from classroom import pdf_bidi, pdf_fonts
from classroom.roster.student_secrets import Secret, secret_tag

CARD_SALT = "classroom.roster.login-card-url"

# --- the token ------------------------------------------------------------------------------------


def card_token(student) -> str:
    return signing.Signer(salt=CARD_SALT).sign(f"{student.pk}.{secret_tag(student.secret_hash)}")


def student_for_card(token: str):
    """The active student a card's token names, or None (forged, secret reset, deleted)."""
    try:
        value = signing.Signer(salt=CARD_SALT).unsign(token)
    except signing.BadSignature:
        return None
    pk, _sep, tag = value.partition(".")
    if not pk.isdigit():
        return None
    student = get_user_model().objects.filter(pk=int(pk), role=Role.STUDENT, is_active=True).first()
    if student is None or not constant_time_compare(secret_tag(student.secret_hash), tag):
        return None
    return student


# --- the PDF --------------------------------------------------------------------------------------

PAGE_WIDTH, PAGE_HEIGHT = A4
COLUMNS, ROWS = 2, 4
CARD_WIDTH, CARD_HEIGHT = 92 * mm, 64 * mm
MARGIN_X = (PAGE_WIDTH - COLUMNS * CARD_WIDTH) / 2
MARGIN_Y = (PAGE_HEIGHT - ROWS * CARD_HEIGHT) / 2
PADDING = 4 * mm
QR_SIZE = 30 * mm
QR_BORDER = 2  # modules of white around the code, which scanners need
CARDS_PER_PAGE = COLUMNS * ROWS


@dataclass(frozen=True)
class Card:
    name: str
    secret: Secret | None  # None: not known here (never set, or set by another path)
    url: str


def card_origin(index: int) -> tuple[float, float]:
    """Bottom-left corner, in points, of the card at ``index`` on its page (row by row, each
    from the side its language starts on)."""
    slot = index % CARDS_PER_PAGE
    column, row = slot % COLUMNS, slot // COLUMNS
    if pdf_bidi.right_to_left():
        column = COLUMNS - 1 - column
    return MARGIN_X + column * CARD_WIDTH, PAGE_HEIGHT - MARGIN_Y - (row + 1) * CARD_HEIGHT


def qr_box(index: int) -> tuple[float, float, float]:
    """Bottom-left corner and side, in points, of the QR code (quiet zone included) of a card:
    at the end of the card's lines, on its left in a language written right to left."""
    x, y = card_origin(index)
    qx = x + CARD_WIDTH - PADDING - QR_SIZE
    if pdf_bidi.right_to_left():
        qx = 2 * x + CARD_WIDTH - qx - QR_SIZE
    return qx, y + CARD_HEIGHT - PADDING - 9 * mm - QR_SIZE, QR_SIZE


def _fonts() -> tuple[str, str]:
    """DejaVu Sans (classroom/fonts/) prints any child's name, accents and all scripts it covers."""
    return pdf_fonts.register("CardSans", "CardSans-Bold")


def cards_pdf(*, classroom, cards: list[Card], sign_in_url: str) -> bytes:
    """``sign_in_url``: the class-code sign-in page, printed for those without a QR reader."""
    regular, bold = _fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(_("Login cards: %(name)s") % {"name": classroom.name})
    canvas.setCreator("Arithmetic games classroom")
    for index, card in enumerate(cards):
        if index and index % CARDS_PER_PAGE == 0:
            canvas.showPage()
        _draw_card(canvas, index, card, classroom, sign_in_url, regular, bold)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


class _Writer:
    """Writes a card's lines from the side its language starts on: right to left, every text
    shaped and ordered (pdf_bidi) and every position mirrored on the card."""

    def __init__(self, canvas, x: float):
        self.canvas, self.x, self.mirrored = canvas, x, pdf_bidi.right_to_left()

    def at(self, px: float) -> float:
        """A position given from the card's left edge, as drawn."""
        return 2 * self.x + CARD_WIDTH - px if self.mirrored else px

    def line(self, px: float, py: float, text: str) -> None:
        """A line starting at ``px`` (its left end left to right, its right end right to left)."""
        self.drawn(px, py, pdf_bidi.line(text))

    def drawn(self, px: float, py: float, drawn: str) -> None:
        """A line already as drawn (pdf_bidi.lines), starting at ``px``."""
        draw = self.canvas.drawRightString if self.mirrored else self.canvas.drawString
        draw(self.at(px), py, drawn)

    def centred(self, px: float, py: float, text: str) -> None:
        self.canvas.drawCentredString(self.at(px), py, pdf_bidi.line(text))

    def box(self, px: float, side: float) -> float:
        """The left edge of a box of ``side`` that starts at ``px``."""
        return self.at(px + side) if self.mirrored else px


def _fit(canvas, text: str, font: str, size: float, width: float, smallest=6.0) -> float:
    text = pdf_bidi.line(text)
    while size > smallest and canvas.stringWidth(text, font, size) > width:
        size -= 0.5
    return size


def _draw_card(canvas, index, card: Card, classroom, sign_in_url, regular, bold) -> None:
    x, y = card_origin(index)
    canvas.saveState()
    canvas.setStrokeColor(colors.grey)
    canvas.setDash(3, 3)  # where to cut
    canvas.rect(x, y, CARD_WIDTH, CARD_HEIGHT)
    canvas.restoreState()

    left, top = x + PADDING, y + CARD_HEIGHT - PADDING
    text_width = CARD_WIDTH - 3 * PADDING - QR_SIZE
    write = _Writer(canvas, x)
    canvas.setFillColor(colors.black)
    canvas.setFont(regular, 8)
    write.line(left, top - 8, classroom.name[:60])
    code_label = _("Class code: %(code)s") % {"code": classroom.code}
    canvas.setFont(bold, 10)
    write.line(left, top - 21, code_label)

    size = _fit(canvas, card.name, bold, 18, text_width)
    canvas.setFont(bold, size)
    write.line(left, top - 44, card.name)

    secret_top = top - 58
    if card.secret is None:
        canvas.setFont(regular, 8)
        write.line(left, secret_top - 10, _("Ask your teacher for your secret."))
    elif card.secret.is_pin:
        canvas.setFont(regular, 8)
        write.line(left, secret_top - 2, _("Your PIN"))
        canvas.setFont(bold, 22)
        # Typed as printed, first digit first: left to right in every language.
        write.line(left, secret_top - 26, held(" ".join(card.secret.value)))
    else:
        canvas.setFont(regular, 8)
        write.line(left, secret_top - 2, _("Your pictures, in this order"))
        pictures = card.secret.pictures
        step = min(13 * mm, text_width / len(pictures))
        side = step - 2 * mm
        for n, (key, _emoji, label) in enumerate(pictures):
            px, py = write.box(left + n * step, side), secret_top - 10 - side
            draw_picture(canvas, key, px, py, side)
            _draw_badge(canvas, str(n + 1), px, py + side, bold)
            canvas.setFillColor(colors.black)
            canvas.setFont(regular, _fit(canvas, label, regular, 7, step - 1))
            canvas.drawCentredString(px + side / 2, py - 8, pdf_bidi.line(label))

    qx, qy, qside = qr_box(index)
    _draw_qr(canvas, card.url, qx, qy, qside)
    canvas.setFont(regular, 7)
    canvas.drawCentredString(qx + qside / 2, qy - 9, pdf_bidi.line(_("Scan to sign in")))

    steps = _("Or open %(url)s, type the class code and pick your name.") % {"url": sign_in_url}
    lines = pdf_bidi.lines(steps, regular, 6.5, CARD_WIDTH - 2 * PADDING)[:2]
    canvas.setFont(regular, 6.5)
    for n, line in enumerate(lines):
        write.drawn(left, y + 10 + 7.5 * (len(lines) - 1 - n), line)
    canvas.setFillColor(colors.dimgrey)
    # For machines and the curious: the same URL as the QR code, whole on one line.
    canvas.setFont(regular, _fit(canvas, card.url, regular, 5, CARD_WIDTH - 4 * mm, smallest=3))
    write.line(x + 2 * mm, y + 3.5, card.url)


def _draw_badge(canvas, text: str, x: float, y: float, font: str) -> None:
    """The order of a picture, in a small disc on its top-left corner."""
    canvas.saveState()
    canvas.setFillColor(colors.white)
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(0.6)
    canvas.circle(x + 1 * mm, y - 1 * mm, 1.9 * mm, stroke=1, fill=1)
    canvas.setFillColor(colors.black)
    canvas.setFont(font, 6.5)
    canvas.drawCentredString(x + 1 * mm, y - 1 * mm - 2.3, text)
    canvas.restoreState()


def _draw_qr(canvas, url: str, x: float, y: float, side: float) -> None:
    rows = list(segno.make(url, error="m", micro=False).matrix_iter(border=QR_BORDER))
    module = side / len(rows)
    canvas.saveState()
    canvas.setFillColor(colors.white)
    canvas.rect(x, y, side, side, stroke=0, fill=1)
    canvas.setFillColor(colors.black)
    path = canvas.beginPath()
    for r, row in enumerate(rows):
        top = y + side - (r + 1) * module
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                path.rect(x + start * module, top, (c - start) * module, module)
            else:
                c += 1
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


# --- pictures a child who cannot read yet recognises ----------------------------------------------


def draw_picture(canvas, key: str, x: float, y: float, s: float) -> None:
    """The picture ``key`` in the square (x, y, side s), as the sign-in page shows it (the page's
    emoji would not exist in PDF fonts)."""
    renderPDF.draw(picture_drawing(key, s), canvas, x, y)
