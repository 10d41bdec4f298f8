"""Every card's text fits its card (issue 23, "Words a child reads"): the worded cards are the
ones that spilled (¡Mía!'s "Extra time", "Wild", "Tiempo extra"; SUM's wild cards such as
"Neutralization", which broke into "Neutra/lizatio/n"). The child's hand is dealt with every worded
card in it (the cards are swapped in from the deck, so the deal stays a legal one) and the play page
is measured in Chromium at phone and tablet sizes, in English and in Spanish, and again with
WCAG 1.4.12's text spacing: no card's text is cut off or spills out, no word is broken inside, and
no two cards overlap.

A random deal reached these cards only now and then, so the target-size test (which reads the
same pages) failed only on the days it dealt a Wild; this test deals them every time."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie
from tests.browser.test_target_size_reflow import TEXT_SPACING

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SETUP = """
import json
import engine
from django.urls import reverse
from engine import mia_cards, sum_cards
from tests.factories import make_class, make_match, make_student, make_teacher, session_cookie_for

teacher = make_teacher()
classroom = make_class(teacher)
ana = make_student(classroom, name="Ana")
ben = make_student(classroom, name="Ben")


def deal_into_hand(match, wanted, piles):
    # Moves the cards `wanted` (ids) into seat 0's hand, giving back as many of its own cards to
    # where each wanted card was: every card stays in the game once.
    state = match.state
    data = state["data"]
    hand = data["hands"][0]
    given_back = [card for card in hand if card not in wanted][: len(wanted)]
    for card, back in zip(wanted, given_back):
        if card in hand:
            continue
        for name in piles:
            pile = data[name]
            if card in pile:
                pile[pile.index(card)] = back
                break
        else:
            for other in data["hands"][1:]:
                if card in other:
                    other[other.index(card)] = back
                    break
        hand[hand.index(back)] = card
    data["hands"][0] = sorted(hand) if match.game == "mia" else hand
    match.state = state
    match.save(update_fields=["state"])


mia = make_match(game="mia", variant="express", players=[ana, ben], teacher=teacher,
                 options={"pass_timeout_seconds": 240})
kinds = mia_cards.NUMBER_KIND
wild = [i for i, kind in enumerate(kinds) if kind == "wild"][:1]
extra = [i for i, kind in enumerate(kinds) if kind == "extra_time"][:2]
deal_into_hand(mia, wild + extra, ["numbers"])

sum_match = make_match(game="sum", variant="standard", players=[ana, ben], teacher=teacher)
wilds = []
for name in sum_cards.WILDS:
    wilds.append(next(i for i, face in enumerate(sum_cards.FACE) if face == name))
deal_into_hand(sum_match, wilds[:3], ["operations"])
other_sum = make_match(game="sum", variant="standard", players=[ana, ben], teacher=teacher)
deal_into_hand(other_sum, wilds[3:] + wilds[:2], ["operations"])

print(json.dumps({
    "student": session_cookie_for(ana),
    "pages": [reverse("games:play", args=[m.pk]) for m in (mia, sum_match, other_sum)],
}))
"""

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}

# Each card of the child's table: its text inside its box, no word broken across lines, no overlap.
CARDS_THAT_DO_NOT_FIT = """() => {
  const found = [];
  const cards = [...document.querySelectorAll(
    '#play-board :is(.card-button, .card-face, .sum-card, .addup-card, .mj-rack-tile)')]
    .filter((el) => el.getClientRects().length && !el.closest('[hidden]'));
  const name = (el) => el.textContent.trim().replace(/\\s+/g, ' ');
  for (const card of cards) {
    if (card.scrollWidth > card.clientWidth + 1 || card.scrollHeight > card.clientHeight + 1) {
      found.push(`'${name(card)}' spills: ${card.scrollWidth}x${card.scrollHeight} in ` +
        `${card.clientWidth}x${card.clientHeight}`);
    }
    const box = card.getBoundingClientRect();
    const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const words = node.textContent.trim().split(/\\s+/).filter(Boolean);
      if (!words.length) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > words.length) {
        found.push(`'${name(card)}' breaks a word: ${words.length} words on ${lines.size} lines`);
      }
      for (const rect of range.getClientRects()) {
        if (rect.left < box.left - 1 || rect.right > box.right + 1 ||
            rect.top < box.top - 1 || rect.bottom > box.bottom + 1) {
          found.push(`'${name(card)}' text outside its card`);
          break;
        }
      }
    }
  }
  for (let i = 0; i < cards.length; i++) {
    for (let j = i + 1; j < cards.length; j++) {
      const a = cards[i].getBoundingClientRect();
      const b = cards[j].getBoundingClientRect();
      const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
        Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
      if (overlap && !cards[i].contains(cards[j]) && !cards[j].contains(cards[i])) {
        found.push(`'${name(cards[i])}' overlaps '${name(cards[j])}'`);
      }
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("card-text", setup=SETUP) as site:
        yield site


@pytest.mark.parametrize("locale", ["en", "es"])
def test_every_card_text_fits_its_card(browser, server, locale):
    context = browser.new_context(viewport=PHONE, locale=locale, reduced_motion="reduce")
    add_session_cookie(context, server.url, server.made["student"])
    found = []
    worded = 0
    try:
        for path in server.made["pages"]:
            page = context.new_page()
            page.set_default_timeout(15_000)
            try:
                page.goto(server.url + path)
                expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
                worded += page.locator(
                    "#play-board :is(.card-button.special, .sum-card-wild)"
                ).count()
                for size_name, size in (("phone", PHONE), ("tablet", TABLET)):
                    page.set_viewport_size(size)
                    for problem in page.evaluate(CARDS_THAT_DO_NOT_FIT):
                        found.append(f"{path} {locale} {size_name}: {problem}")
                page.evaluate(TEXT_SPACING)
                for size_name, size in (("phone", PHONE), ("tablet", TABLET)):
                    page.set_viewport_size(size)
                    for problem in page.evaluate(CARDS_THAT_DO_NOT_FIT):
                        found.append(f"{path} {locale} {size_name}, text spacing: {problem}")
            finally:
                page.close()
    finally:
        context.close()
    # The hands hold a Wild, two Extra time cards and SUM's four wilds (three in each of two
    # matches); a worded card may also be on the table.
    assert worded >= 3 + 3 + 3, worded
    assert found == [], "\n".join(found)
