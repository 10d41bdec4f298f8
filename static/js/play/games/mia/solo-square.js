// ¡Mía!'s solo square (solo5/4/3; docs/rules/mia_solo.md): the square of cards, the open ones
// solved with two cards of the hand, a swap when stuck, and the stars.
import { h } from "../../dom.js";
import { gettext, ngettext } from "../../i18n.js";
import { say } from "../../table.js";
import { handSection, optionButtons, selection, send } from "./choosing.js";
import { optionFace, optionName, optionText } from "./faces.js";

function isOpen(view, row, col) {
  return (view.open || []).some(([r, c]) => r === row && c === col);
}

export function renderSolo(root, view, ctx) {
  const ui = selection(ctx, view);
  const playing = !view.outcome && !ctx.spectator;
  if (ui.cell && !isOpen(view, ui.cell[0], ui.cell[1])) ui.cell = null;
  const size = view.size;
  const grid = h(
    "div",
    {
      class: "mia-square",
      role: "group",
      "aria-label": gettext("The square"),
      // --square-size: on a phone the cells share the board's width (static/css/games/mia.css).
      style: `grid-template-columns: repeat(${size}, auto); --square-size: ${size}`,
      // One Tab stop, the arrows moving across and up and down the square.
      dataset: { roving: "square", rovingColumns: String(size) },
    },
    view.square.flatMap((cells, row) =>
      cells.map((card, col) => {
        const open = card && isOpen(view, row, col);
        const pressed = Boolean(ui.cell && ui.cell[0] === row && ui.cell[1] === col);
        const where = say(gettext("row %(row)s, column %(col)s"), { row: row + 1, col: col + 1 });
        let label;
        if (!card) label = say(gettext("Empty, %(where)s"), { where });
        else {
          const options = card.options.map(optionName).join(` ${gettext("or")} `);
          label = open
            ? say(gettext("%(options)s, open, %(where)s"), { options, where })
            : say(gettext("%(options)s, blocked, %(where)s"), { options, where });
        }
        return h(
          "button",
          {
            type: "button",
            class: `square-cell${open ? " is-open" : ""}${card ? "" : " is-empty"}`,
            "aria-pressed": open && playing ? String(pressed) : null,
            "aria-disabled": open && playing ? null : "true",
            "aria-label": label,
            dataset: {
              key: `cell-${row}-${col}`,
              row: String(row),
              col: String(col),
              ...(card ? { read: card.options.map(optionText).join(", ") } : {}),
            },
            onclick: () => {
              if (!open || !playing) return;
              ui.cell = pressed ? null : [row, col];
              ui.option = null;
              ctx.rerender();
            },
          },
          card
            ? [
                ...card.options.map((o) => h("span", {}, optionFace(o, ctx))),
                // Open or blocked is said in words and drawn as a pattern, not by colour alone.
                h(
                  "small",
                  { class: "square-state", "aria-hidden": "true" },
                  open ? gettext("open") : gettext("blocked"),
                ),
              ]
            : "·",
        );
      }),
    ),
  );

  const parts = [
    h(
      "section",
      { class: "game-section" },
      h("h2", {}, gettext("The square")),
      h("p", { class: "game-note" }, gettext("Cards marked “open” can be solved with two of your cards.")),
      grid,
    ),
  ];
  if (ui.feedback) parts.push(h("p", { class: "claim-feedback" }, ui.feedback));
  const cellCard = ui.cell ? view.square[ui.cell[0]][ui.cell[1]] : null;
  if (playing && view.hand) {
    parts.push(
      h(
        "section",
        { class: "game-section" },
        h("h2", {}, gettext("The card you chose")),
        cellCard
          ? optionButtons(cellCard, view, ctx, { enabled: true, keyPrefix: "cell" })
          : h("p", { class: "game-note" }, gettext("Tap an open card of the square.")),
      ),
    );
    parts.push(
      handSection(view, ctx, {
        selectable: () => true,
        note: gettext("Tap an open card, two of your cards and the target they make, then Solve."),
      }),
    );
    const ready = ui.cards.length === 2 && ui.option !== null && cellCard;
    parts.push(
      h(
        "div",
        { class: "game-row actions", dataset: { roving: "actions" } },
        h(
          "button",
          {
            type: "button",
            class: "action-button",
            disabled: !ready,
            dataset: { key: "solve" },
            onclick: () => {
              if (!ready || ctx.pending) return;
              send(ctx, {
                type: "solve",
                row: ui.cell[0],
                col: ui.cell[1],
                cards: [...ui.cards],
                option: ui.option,
              });
            },
          },
          gettext("Solve"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "action-button secondary",
            disabled: !(ui.cards.length === 2 && view.can_swap),
            dataset: { key: "swap" },
            onclick: () => send(ctx, { type: "swap", cards: [...ui.cards] }),
          },
          gettext("Stuck? Swap these two cards"),
        ),
      ),
    );
  }
  parts.push(
    h(
      "ul",
      { class: "game-note" },
      h("li", {}, say(gettext("Solved: %(cleared)s of %(total)s"), { cleared: view.cleared, total: view.cards_total })),
      h("li", {}, say(gettext("Swaps: %(swaps)s"), { swaps: view.swaps })),
      h("li", {}, say(gettext("Mistakes: %(mistakes)s"), { mistakes: view.mistakes })),
      h("li", {}, say(gettext("Cards left in the deck: %(count)s"), { count: view.deck_count })),
      view.result === null
        ? h("li", {}, say(
              ngettext(
                "Clear the square now for %(stars)s star.",
                "Clear the square now for %(stars)s stars.",
                view.stars_if_cleared,
              ),
              { stars: view.stars_if_cleared },
            ))
        : h("li", { class: "stars" }, "★".repeat(view.stars || 0) + "☆".repeat(3 - (view.stars || 0))),
    ),
  );
  root.replaceChildren(...parts.filter(Boolean));
}
