"""Target size and reflow on every page type (issue 22, WCAG 2.2 AA): the pages of the axe scan
(tests/browser/test_accessibility.py, one list of page types) are measured in real Chromium.

- 2.5.8 Target Size (Minimum): every control a visitor, teacher or child can press is at least
  24 x 24 CSS px; on the play pages (the children's table) at least 44 x 44 (the issue's bar,
  WCAG's AAA 2.5.5), read at a tablet's width. A link inside a sentence is the criterion's own
  exception (its size is the line's); hidden controls and the skip link (off screen until it has
  the focus) are not targets.
- 1.4.10 Reflow: at 320 CSS px wide no page scrolls sideways (a board that needs its two
  dimensions, Mathable Junior's 10 x 10 grid, may scroll inside its own box: the criterion's
  exception).
- 1.4.4 Resize Text: with the text at 200 % (the root font size doubled, as a browser's text-only
  zoom does) at a laptop's width, no page scrolls sideways either.
- 1.4.12 Text Spacing: with the criterion's spacing (line height 1.5, paragraph spacing 2, letter
  spacing 0.12 and word spacing 0.16 times the font size) no page scrolls sideways and no text is
  cut off or spills out of its control.

One visit per page does the three readings (the viewport and the font size change in place); the
pages of one role are one test so that a failure names every offender at once.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie
from tests.browser.test_accessibility import SETUP

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

WIDE = {"width": 1024, "height": 800}
NARROW = {"width": 320, "height": 640}
LEAST = 24
LEAST_ON_PLAY = 44

# Every target of the page that is smaller than `least` on either side, as "tag 'text' WxH".
SMALL_TARGETS = """(least) => {
  const targets = document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button],' +
    ' [tabindex]:not([tabindex="-1"])');
  const small = [];
  for (const el of targets) {
    if (el.classList.contains('skip-link')) continue;
    if (el.closest('[hidden], .visually-hidden')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    // A link in a sentence: the criterion's inline exception.
    if (el.tagName === 'A' && style.display === 'inline') {
      const parent = el.parentElement;
      const text = [...parent.childNodes].some(
        (n) => n !== el && n.nodeType === Node.TEXT_NODE && n.textContent.trim());
      if (text) continue;
    }
    // A radio button or check box with its label beside it: the label is the target too.
    if (el.tagName === 'INPUT' && (el.type === 'radio' || el.type === 'checkbox') && el.labels
        && el.labels.length) {
      const label = el.labels[0].getBoundingClientRect();
      const width = Math.max(box.right, label.right) - Math.min(box.left, label.left);
      const height = Math.max(box.bottom, label.bottom) - Math.min(box.top, label.top);
      if (width >= least && height >= least) continue;
    }
    if (box.width + 0.5 < least || box.height + 0.5 < least) {
      const name = (el.getAttribute('aria-label') || el.textContent || el.name || el.type || '')
        .trim().replace(/\\s+/g, ' ').slice(0, 30);
      const size = `${box.width.toFixed(0)}x${box.height.toFixed(0)}`;
      small.push(`${el.tagName.toLowerCase()} '${name}' ${size}`);
    }
  }
  return small;
}"""

# Whether the page scrolls sideways, and what sticks out (the first few offenders).
SIDEWAYS = """() => {
  const width = document.documentElement.clientWidth;
  const scroll = document.documentElement.scrollWidth;
  if (scroll <= width) return null;
  const out = [];
  const scrollsInside = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (scrollsInside(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.right > width + 1 && box.width > 0) {
      const what = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
      out.push(`${what} ${box.right.toFixed(0)}`);
      if (out.length > 4) break;
    }
  }
  return `scrolls to ${scroll} px: ${out.join(', ')}`;
}"""

# Text at 200 %: the root font size doubled (every rem and em follows, as in text-only zoom).
DOUBLE_TEXT = """() => {
  const html = document.documentElement;
  html.style.fontSize = (parseFloat(getComputedStyle(html).fontSize) * 2) + 'px';
}"""


# WCAG 1.4.12's spacing, as a user style sheet would set it: added through the CSSOM to the page's
# own style sheet (the Content-Security-Policy refuses a <style> element, not the CSSOM).
TEXT_SPACING = """() => {
  document.documentElement.style.fontSize = '';
  const sheet = [...document.styleSheets].find((s) => s.href && s.href.startsWith(location.origin));
  for (const rule of [
    '* { line-height: 1.5 !important; letter-spacing: 0.12em !important;' +
      ' word-spacing: 0.16em !important; }',
    'p { margin-bottom: 2em !important; }',
  ]) sheet.insertRule(rule, sheet.cssRules.length);
}"""

# Text cut off (a box that hides what overflows it) or spilling out of a control or a heading.
CUT_OFF = """() => {
  const cut = [];
  for (const el of document.querySelectorAll(
      'button, a[href], label, legend, summary, h1, h2, h3, th, td, p, li')) {
    if (el.closest('[hidden], .visually-hidden, .skip-link')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline' || style.display === 'none') continue;
    const scrolls = (overflow) => overflow === 'auto' || overflow === 'scroll';
    if (scrolls(style.overflowX) || scrolls(style.overflowY)) continue;
    if (!el.textContent.trim()) continue;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
      const text = el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 30);
      const size = `${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`;
      cut.push(`${el.tagName.toLowerCase()} '${text}' ${size}`);
    }
  }
  return cut;
}"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("target-size", setup=SETUP) as site:
        yield site


def wait_for_table(page):
    expect(page.locator("#play-status")).to_have_text("")
    expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")


def read_every_page(browser, server, who: str, read) -> list[str]:
    """Opens each page of ``who`` (the accessibility scan's list) at a laptop's width, a play
    page once its table is drawn, and gathers what ``read(page, path, kind)`` finds there."""
    context = browser.new_context(viewport=WIDE, locale="en", reduced_motion="reduce")
    if who != "visitor":
        add_session_cookie(context, server.url, server.made[who])
    found = []
    try:
        # One tab, each page opened in it in turn: every navigation is a new document (the font
        # size and text spacing a reading sets die with the old one, and it puts the viewport
        # back to a laptop's width), and a new tab for each page cost Chromium a renderer of its
        # own and a cold first load.
        page = context.new_page()
        page.set_default_timeout(15_000)
        for role, path, kind in server.made["pages"]:
            if role != who:
                continue
            response = page.goto(server.url + path)
            assert response.status < 400, (who, path, response.status)
            if kind == "play":
                wait_for_table(page)
            found += read(page, path, kind)
    finally:
        context.close()
    return found


def sizes_and_reflow(page, path: str, kind: str) -> list[str]:
    found = []
    least = LEAST_ON_PLAY if kind == "play" else LEAST
    for small in page.evaluate(SMALL_TARGETS, least):
        found.append(f"{path} under {least} px: {small}")
    page.set_viewport_size(NARROW)
    for small in page.evaluate(SMALL_TARGETS, LEAST):
        found.append(f"{path} at 320 px, under {LEAST} px: {small}")
    sideways = page.evaluate(SIDEWAYS)
    if sideways:
        found.append(f"{path} at 320 px {sideways}")
    page.set_viewport_size(WIDE)
    page.evaluate(DOUBLE_TEXT)
    sideways = page.evaluate(SIDEWAYS)
    if sideways:
        found.append(f"{path} with 200 % text {sideways}")
    page.evaluate(TEXT_SPACING)
    sideways = page.evaluate(SIDEWAYS)
    if sideways:
        found.append(f"{path} with text spacing {sideways}")
    for cut in page.evaluate(CUT_OFF):
        found.append(f"{path} with text spacing, cut off: {cut}")
    return found


@pytest.mark.parametrize("who", ["visitor", "teacher", "student"])
def test_targets_are_big_enough_and_pages_reflow(browser, server, who):
    found = read_every_page(browser, server, who, sizes_and_reflow)
    assert found == [], "\n".join(found)
