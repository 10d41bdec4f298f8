"""Non-text contrast (WCAG 2.2 1.4.11, issue 22) measured in Chromium on every page type of the
accessibility scan (tests/browser/test_accessibility.py's pages), not only reviewed: every control a
visitor, teacher or child operates (buttons, fields, choices, cards and tiles, the play page's
squares) shows where it is by a border or a background of at least 3:1 against what is around it.
A control drawn as text alone (a link, a button styled as a link) is read by its text, which axe
checks (1.4.3); check boxes and radio buttons are drawn by the browser. The progress pages'
graphics are not required to understand them (each fact cell says its figure in text, each chart
is followed by a table of the same figures): docs/accessibility.md, 1.4.11."""

from __future__ import annotations

import pytest

from tests.browser.test_accessibility import SETUP
from tests.browser.test_target_size_reflow import read_every_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LOW_CONTRAST = """() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a),
    a: 1,
  });
  const lum = ({ r, g, b }) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (x, y) => {
    const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p);
    return (a + 0.05) / (b + 0.05);
  };
  // The colour behind an element: its ancestors' backgrounds composed, white at the bottom.
  const behind = (el) => {
    const layers = [];
    for (let up = el.parentElement; up; up = up.parentElement) {
      const bg = parse(getComputedStyle(up).backgroundColor);
      if (bg && bg.a > 0) layers.push(bg);
      if (bg && bg.a === 1) break;
    }
    let colour = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const found = [];
  const controls = document.querySelectorAll(
    'button, input:not([type=hidden]), select, textarea, [role=button], ' +
    '.card-button, .card-face, .sum-card, .addup-card, .mj-rack-tile, .mj-square, .square-cell');
  for (const el of controls) {
    if (el.closest('[hidden], .visually-hidden, .skip-link')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const around = behind(el);
    const own = parse(style.backgroundColor);
    const fill = own && own.a > 0 ? over(own, around) : around;
    const best = [];
    best.push(ratio(fill, around));
    for (const side of ['Top', 'Right', 'Bottom', 'Left']) {
      const width = parseFloat(style[`border${side}Width`]);
      const colour = parse(style[`border${side}Color`]);
      if (width >= 1 && style[`border${side}Style`] !== 'none' && colour) {
        best.push(ratio(over(colour, around), around), ratio(over(colour, fill), fill));
      }
    }
    // Check boxes and radio buttons are drawn by the browser (its own edge): their accent.
    if (el.type === 'checkbox' || el.type === 'radio') continue;
    // A control drawn as text alone (no border, no fill): its text is its boundary (1.4.3).
    const bare = best.length === 1 && best[0] < 1.01;
    if (bare) continue;
    const top = Math.max(...best);
    if (top < 3) {
      const name = (el.getAttribute('aria-label') || el.textContent || el.name || el.type || '')
        .trim().replace(/\\s+/g, ' ').slice(0, 30);
      found.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} '${name}' ` +
        `${top.toFixed(2)}:1`);
    }
  }
  return [...new Set(found)];
}"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("non-text-contrast", setup=SETUP) as site:
        yield site


@pytest.mark.parametrize("who", ["visitor", "teacher", "student"])
def test_every_control_stands_out_at_three_to_one(browser, server, who):
    found = read_every_page(
        browser,
        server,
        who,
        lambda page, path, _kind: [f"{path}: {low}" for low in page.evaluate(LOW_CONTRAST)],
    )
    assert found == [], "\n".join(found)
