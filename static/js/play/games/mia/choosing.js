// What the child chooses before a move, at the table and in the solo square alike: the cards of
// the hand, a target, a Wild's number (kept in ctx.ui across drawings), and the move sent.
import { h } from "../../dom.js";
import { gettext } from "../../i18n.js";
import { readAs, withDots } from "../../numbers.js";
import * as roving from "../../roving.js";
import { say, sendThenRerender } from "../../table.js";
import { cardText, optionFace, optionName, optionText } from "./faces.js";

export function selection(ctx, view) {
  const ui = ctx.ui;
  if (!ui.cards) Object.assign(ui, { cards: [], option: null, wild: {}, cell: null, round: null });
  const inHand = new Set((view.hand || []).map((c) => c.id));
  ui.cards = ui.cards.filter((id) => inHand.has(id));
  for (const id of Object.keys(ui.wild)) if (!inHand.has(Number(id))) delete ui.wild[id];
  const round = view.size ? view.version : view.round;
  if (ui.round !== round) {
    // A new card on the table: what was chosen for the old one no longer means anything.
    ui.option = null;
    ui.round = round;
  }
  return ui;
}

// How far the table's claim is: "cards" (fewer than two chosen), "wild-<id>" (two cards, a
// chosen Wild still without its number) or "ready" (the targets claim).
export function claimStep(view, ctx) {
  const ui = ctx.ui;
  if (ui.cards.length < 2) return "cards";
  const hand = new Map((view.hand || []).map((c) => [c.id, c]));
  const open = ui.cards.find((id) => hand.get(id).kind === "wild" && !Number.isInteger(ui.wild[id]));
  return open === undefined ? "ready" : `wild-${open}`;
}

// A choice of the claim (a card, a Wild's number; in the solo square a target too). At the table,
// when a choice leaves nothing else to choose there, the focus goes to the next step by itself:
// the second card to the Wild's numbers, or to the targets, where one key claims; whichever way
// the choices were made (shortcut keys, arrows and Enter, or taps). The preview says so.
export function choose(ctx, view, change) {
  const was = view.size ? null : claimStep(view, ctx);
  change();
  ctx.rerender();
  if (view.size) return;
  const step = claimStep(view, ctx);
  if (step === was || step === "cards") return;
  const board = document.getElementById("play-board");
  if (step !== "ready") {
    roving.enter(board, step);
    return;
  }
  const first = board.querySelector('[data-roving="top-options"] button:not(:disabled)');
  if (first) roving.moveTo(first);
}

function toggleCard(ctx, view, id) {
  choose(ctx, view, () => {
    const ui = ctx.ui;
    if (ui.cards.includes(id)) ui.cards = ui.cards.filter((c) => c !== id);
    else ui.cards = [...ui.cards.slice(-1), id];
  });
}

export function handSection(view, ctx, { selectable, note }) {
  const ui = ctx.ui;
  const hand = view.hand || [];
  const row = h(
    "div",
    { class: "game-row hand", role: "group", "aria-label": gettext("Your cards"), dataset: { roving: "hand" } },
    hand.map((card) => {
      const usable = selectable(card);
      const pressed = ui.cards.includes(card.id);
      return h(
        "button",
        {
          type: "button",
          class: `card-button${card.kind === "number" ? "" : " special"}`,
          "aria-pressed": usable ? String(pressed) : null,
          "aria-label": usable
            ? say(gettext("Card %(value)s"), { value: cardText(card) })
            : say(gettext("Card %(value)s (not for claims)"), { value: cardText(card) }),
          disabled: !usable,
          dataset: {
            key: `card-${card.id}`,
            card: String(card.id),
            value: card.value ?? card.kind,
            ...(card.kind === "number" ? { read: readAs(card.value) } : {}),
          },
          onclick: () => toggleCard(ctx, view, card.id),
        },
        card.kind === "number" ? withDots(ctx, card.value) : cardText(card),
      );
    }),
  );
  return h(
    "section",
    { class: "game-section" },
    h("h2", {}, gettext("Your cards")),
    row,
    h("p", { class: "game-note" }, note),
  );
}

export function optionButtons(card, view, ctx, { enabled, keyPrefix }) {
  if (ctx.spectator) {
    // Watching (the projector): the card as it lies on the table, nothing to press.
    return h(
      "div",
      { class: "game-row" },
      card.options.map((option) =>
        h("span", { class: "option-button option-face" }, optionFace(option, ctx)),
      ),
    );
  }
  const row = h(
    "div",
    {
      class: "game-row",
      role: "group",
      "aria-label": gettext("Choose a target"),
      dataset: { roving: `${keyPrefix}-options` },
    },
    card.options.map((option, index) =>
      h(
        "button",
        {
          type: "button",
          class: "option-button",
          "aria-pressed": enabled ? String(ctx.ui.option === index) : null,
          "aria-label": optionName(option),
          disabled: !enabled,
          dataset: {
            key: `${keyPrefix}-option-${index}`,
            option: String(index),
            op: option.op,
            target: String(option.target),
            read: optionText(option),
          },
          onclick: () =>
            choose(ctx, view, () => {
              ctx.ui.option = ctx.ui.option === index ? null : index;
            }),
        },
        optionFace(option, ctx),
      ),
    ),
  );
  return row;
}

export async function send(ctx, move, { clear = true } = {}) {
  if (!clear) return ctx.send(move);
  return sendThenRerender(ctx, move, () => {
    ctx.ui.cards = [];
    ctx.ui.option = null;
    ctx.ui.cell = null;
    ctx.ui.wild = {};
  });
}
