// ¡Mía!: the table modes (express, party, canada47; docs/rules/mia.md) and the solo square
// (solo5/4/3; docs/rules/mia_solo.md). A view with `size` is the solo square.
import { h } from "../dom.js";
import { gettext, ngettext } from "../i18n.js";
import { expression, ltr } from "../../numerals.js";
import { readAs, withDots } from "../numbers.js";
import * as roving from "../roving.js";
import { say, sendThenRerender, who } from "../table.js";

function optionText(option) {
  return `${option.op === "-" ? "−" : "+"}${option.target}`;
}

// A target in a sentence: "+12" kept left to right on a page read right to left (not "12+").
function optionShown(option) {
  return ltr(optionText(option));
}

// A target said in words, for screen readers ("Sum 12", "Difference 3").
function optionName(option) {
  return option.op === "-"
    ? say(gettext("Difference %(target)s"), { target: option.target })
    : say(gettext("Sum %(target)s"), { target: option.target });
}

// The target as drawn: "+12" (left to right on any page), and its ten-frames for a child with dots.
function optionFace(option, ctx) {
  return withDots(ctx, option.target, expression(optionText(option)));
}

function cardText(card) {
  if (card.kind === "wild") return gettext("Wild");
  if (card.kind === "extra_time") return gettext("Extra time");
  return String(card.value);
}

// "8 − 5" for a difference (larger first), "5 + 8" for a sum, as the rulebook writes them.
function writtenSum(values, op) {
  const [a, b] = values;
  return op === "-" ? `${Math.max(a, b)} − ${Math.min(a, b)}` : `${a} + ${b}`;
}

// "8 − 5 = 3" in a sentence, kept left to right as one on a page read right to left.
function equation(values, op, result) {
  return ltr(`${writtenSum(values, op)} = ${result}`);
}

function wrongWhy(values, op, result, target) {
  return say(gettext("%(equation)s, not %(target)s"), {
    equation: equation(values, op, result),
    target,
  });
}

// --- selection -------------------------------------------------------------------------------

function selection(ctx, view) {
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
function claimStep(view, ctx) {
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
function choose(ctx, view, change) {
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

// The table's claim, sent by a target once the two cards (and a Wild's number) are chosen. After
// it the focus goes back to the hand, where the next claim starts.
async function claim(ctx, view, index) {
  const ui = ctx.ui;
  if (ctx.pending) return;
  const board = document.getElementById("play-board");
  const answer = await send(ctx, {
    type: "claim",
    cards: [...ui.cards],
    option: index,
    ...wildField(view, ctx),
    round: view.round,
  });
  if (answer && answer.ok && board.contains(document.activeElement)) roving.enter(board, "hand");
}

function toggleCard(ctx, view, id) {
  choose(ctx, view, () => {
    const ui = ctx.ui;
    if (ui.cards.includes(id)) ui.cards = ui.cards.filter((c) => c !== id);
    else ui.cards = [...ui.cards.slice(-1), id];
  });
}

function handSection(view, ctx, { selectable, note }) {
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

function wildPicker(view, ctx) {
  const ui = ctx.ui;
  const wilds = (view.hand || []).filter((c) => c.kind === "wild" && ui.cards.includes(c.id));
  return wilds.map((card, n) => {
    const row = h(
      "div",
      { class: "game-row", dataset: { roving: `wild-${card.id}` } },
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((value) =>
        h(
          "button",
          {
            type: "button",
            class: "card-button",
            "aria-pressed": String(ui.wild[card.id] === value),
            dataset: { key: `wild-${card.id}-${value}`, read: readAs(value) },
            onclick: () =>
              choose(ctx, view, () => {
                ui.wild[card.id] = value;
              }),
          },
          withDots(ctx, value),
        ),
      ),
    );
    return h(
      "fieldset",
      { class: "wild-picker" },
      h(
        "legend",
        {},
        wilds.length > 1
          ? say(gettext("Wild %(number)s: which number is it?"), { number: n + 1 })
          : gettext("Which number is your Wild?"),
      ),
      row,
    );
  });
}

function chosenValues(view, ctx) {
  const hand = new Map((view.hand || []).map((c) => [c.id, c]));
  return ctx.ui.cards.map((id) => {
    const card = hand.get(id);
    return card.kind === "wild" ? ctx.ui.wild[id] : card.value;
  });
}

function wildField(view, ctx) {
  const hand = new Map((view.hand || []).map((c) => [c.id, c]));
  const values = ctx.ui.cards
    .filter((id) => hand.get(id).kind === "wild")
    .map((id) => ctx.ui.wild[id]);
  if (values.length === 0) return {};
  return { wild: values.length === 1 ? values[0] : values };
}

// The table's targets: once two cards (and a Wild's number) are chosen each reads "¡Mía! +12"
// and claims; before, a press sends the focus back to the hand, the step still to do.
function targetButtons(card, view, ctx, { enabled }) {
  const ready = enabled && claimStep(view, ctx) === "ready";
  const values = ready ? chosenValues(view, ctx) : [];
  return h(
    "div",
    {
      class: "game-row",
      role: "group",
      "aria-label": gettext("Choose a target"),
      dataset: { roving: "top-options" },
    },
    card.options.map((option, index) =>
      h(
        "button",
        {
          type: "button",
          class: `option-button${ready ? " is-claim" : ""}`,
          "aria-label": ready
            ? say(gettext("¡Mía! %(target)s with %(first)s and %(second)s"), {
                target: optionName(option),
                first: values[0],
                second: values[1],
              })
            : optionName(option),
          // What a press does now: "Choose two cards.", or the claim's two cards.
          "aria-describedby": enabled && view.hand ? "mia-preview" : null,
          disabled: !enabled,
          dataset: {
            key: `top-option-${index}`,
            option: String(index),
            op: option.op,
            target: String(option.target),
            read: optionText(option),
          },
          onclick: () => {
            if (!enabled) return;
            if (claimStep(view, ctx) === "ready") {
              claim(ctx, view, index);
              return;
            }
            const board = document.getElementById("play-board");
            const step = claimStep(view, ctx);
            roving.enter(board, step === "cards" ? "hand" : step);
          },
        },
        ready
          ? [
              // The name as the box prints it, in whichever direction its words run.
              h("span", { class: "claim-word", dir: "auto" }, gettext("¡Mía!")),
              optionFace(option, ctx),
            ]
          : optionFace(option, ctx),
      ),
    ),
  );
}

function optionButtons(card, view, ctx, { enabled, keyPrefix }) {
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

function preview(view, ctx) {
  const ui = ctx.ui;
  if (ui.cards.length === 0) return gettext("Choose two cards.");
  const values = chosenValues(view, ctx).map((v) => (Number.isInteger(v) ? v : "?"));
  if (ui.cards.length === 1) {
    return say(gettext("You chose %(first)s. Choose one more card."), { first: values[0] });
  }
  if (claimStep(view, ctx) !== "ready") {
    return say(gettext("You chose %(first)s and %(second)s. Now choose your Wild's number."), {
      first: values[0],
      second: values[1],
    });
  }
  return say(gettext("You chose %(first)s and %(second)s. Press the target they make: ¡Mía!"), {
    first: values[0],
    second: values[1],
  });
}

async function send(ctx, move, { clear = true } = {}) {
  if (!clear) return ctx.send(move);
  return sendThenRerender(ctx, move, () => {
    ctx.ui.cards = [];
    ctx.ui.option = null;
    ctx.ui.cell = null;
    ctx.ui.wild = {};
  });
}

// --- table modes -----------------------------------------------------------------------------

function renderTable(root, view, ctx) {
  const ui = selection(ctx, view);
  const me = ctx.seat;
  const playing = !view.outcome;
  const active = new Set(view.active || []);
  const canAct = !ctx.spectator && playing && active.has(me);
  const top = view.top;

  const topSection = h(
    "section",
    { class: "game-section", "aria-labelledby": "mia-top-heading", dataset: { round: String(view.round) } },
    h("h2", { id: "mia-top-heading" }, say(gettext("Round %(round)s: the card to solve"), { round: view.round })),
    h(
      "div",
      { class: "mia-top" },
      top && top.options
        ? h(
            "div",
            { class: "op-card", dataset: { key: "top", card: String(top.id) } },
            ctx.spectator
              ? optionButtons(top, view, ctx, { enabled: false, keyPrefix: "top" })
              : targetButtons(top, view, ctx, { enabled: canAct }),
            top.points > 1
              ? h("span", { class: "points" }, say(ngettext("Worth %(points)s point", "Worth %(points)s points", top.points), { points: top.points }))
              : null,
          )
        : h("p", { class: "game-note" }, gettext("No card to solve right now.")),
    ),
    // A calm table (docs/rules/mia.md): no countdown, no race; said once, where the card is.
    view.calm && playing
      ? h("p", { class: "game-note calm-note", dataset: { key: "calm-note" } }, gettext("Answer in your own time"))
      : null,
    view.calm && view.last_closed && view.last_closed.round === view.round - 1
      ? h("p", { class: "game-note", dataset: { key: "last-closed" } }, closedText(view.last_closed.right, ctx))
      : null,
    view.window
      ? h(
          "p",
          { class: "window" },
          ctx.isMe(view.window.seat)
            ? gettext("Extra time: only you may claim now!")
            : say(gettext("Extra time for %(name)s: wait."), { name: ctx.seatName(view.window.seat) }),
        )
      : null,
  );

  // The pile and the decks come after the controls: on a phone the card, the hand and the claim
  // button must be on the first screen.
  const facts = h("section", { class: "game-section mia-facts" },
      h(
        "ul",
        { class: "game-note" },
        h(
          "li",
          {},
          // Two numbers, two plurals: "1 card in the pile (1 point)", "3 cards … (12 points)".
          say(gettext("%(cards)s (%(points)s)"), {
            cards: say(
              ngettext("%(count)s card in the pile", "%(count)s cards in the pile", view.pile_count),
              { count: view.pile_count },
            ),
            points: say(ngettext("%(points)s point", "%(points)s points", view.pile_points), {
              points: view.pile_points,
            }),
          }),
        ),
        view.mirrors_pending
          ? h("li", {}, gettext("Mirror: + and − are swapped on this card."))
          : null,
        h("li", {}, say(gettext("Number cards left in the deck: %(count)s"), { count: view.numbers_left })),
        h("li", {}, say(gettext("Operation cards left: %(count)s"), { count: view.operations_left })),
        view.target ? h("li", {}, say(gettext("First to %(target)s points wins."), { target: view.target })) : null,
      ),
  );

  const parts = [];
  if (ui.feedback) {
    parts.push(h("p", { class: "claim-feedback", dataset: { key: "feedback" } }, ui.feedback));
  }

  if (ctx.spectator || !view.hand) parts.push(topSection);
  else {
    // The hand comes before the card to solve, so that the Tab order is the note's: two cards
    // (a Wild's number), then the target they make, which claims.
    parts.push(
      handSection(view, ctx, {
        selectable: (card) => card.kind !== "extra_time",
        note: gettext("Tap two cards, then the sum or difference they make: ¡Mía!"),
      }),
    );
    parts.push(...wildPicker(view, ctx));
    parts.push(topSection);
    parts.push(
      h("p", { class: "claim-preview", id: "mia-preview", dataset: { key: "preview" } }, preview(view, ctx)),
    );
    const extra = (view.hand || []).find((c) => c.kind === "extra_time");
    const passed = (view.passed || []).includes(me);
    const locked = (view.locked_out || []).includes(me);
    parts.push(
      h(
        "div",
        { class: "game-row actions", dataset: { roving: "actions" } },
        h(
          "button",
          {
            type: "button",
            class: "action-button secondary",
            // aria-disabled, not disabled: the child who passed keeps the focus here while the
            // table moves on (a disabled button drops it), and the screen reader still says it
            // cannot be pressed now.
            "aria-disabled": String(!canAct),
            dataset: { key: "pass" },
            onclick: () => {
              if (!canAct || ctx.pending) return;
              send(ctx, { type: "pass", round: view.round }, { clear: false });
            },
          },
          gettext("I can't: pass"),
        ),
        extra
          ? h(
              "button",
              {
                type: "button",
                class: "action-button secondary",
                disabled: !canAct || Boolean(view.window),
                dataset: { key: "extra-time" },
                onclick: () =>
                  send(ctx, { type: "extra_time", card: extra.id, round: view.round }, { clear: false }),
              },
              view.calm
                ? gettext("Swap Extra time for a new card")
                : say(gettext("Extra time (%(seconds)s s just for you)"), {
                    seconds: view.options.extra_time_seconds,
                  }),
            )
          : null,
      ),
    );
    if (playing && view.calm && view.answer) {
      parts.push(
        h(
          "p",
          { class: "game-note", dataset: { key: "calm-status" } },
          view.answer.passed
            ? gettext("You passed. Waiting for the others…")
            : gettext("You answered. Waiting for the others…"),
        ),
      );
    } else if (playing && (passed || locked)) {
      parts.push(
        h(
          "p",
          { class: "game-note" },
          locked
            ? gettext("You are out for this card. Wait for the next one.")
            : gettext("You passed. Wait for the next card."),
        ),
      );
    }
  }

  parts.push(facts, playersSection(view, ctx));
  root.replaceChildren(...parts.filter(Boolean));
}

function playersSection(view, ctx) {
  const passed = new Set(view.passed || []);
  const locked = new Set(view.locked_out || []);
  const answered = new Set(view.answered || []);
  return h(
    "section",
    { class: "game-section" },
    h("h2", {}, gettext("Players")),
    h(
      "ul",
      { class: "others" },
      ctx.seats.map((seat) => {
        const i = seat.seat;
        const aside = (view.set_aside[i] || []).flatMap((batch) => batch.cards);
        const notes = [
          say(ngettext("%(count)s card in hand", "%(count)s cards in hand", view.hand_counts[i]), {
            count: view.hand_counts[i],
          }),
          say(ngettext("%(count)s card won", "%(count)s cards won", view.won_counts[i]), {
            count: view.won_counts[i],
          }),
        ];
        if (view.calm) {
          // A calm table: only that a player is done with the card, never how (until it closes).
          if (answered.has(i) && !view.outcome) notes.push(gettext("answered"));
        } else if (passed.has(i)) notes.push(gettext("passed"));
        if (locked.has(i)) notes.push(gettext("out for this card"));
        if (aside.length) {
          notes.push(
            say(gettext("set aside: %(cards)s"), { cards: aside.map(cardText).join(", ") }),
          );
        }
        return h(
          "li",
          { dataset: { seat: String(i) } },
          h("strong", {}, who(i, ctx)),
          `: ${notes.join(" · ")}`,
        );
      }),
    ),
  );
}

// --- solo square -----------------------------------------------------------------------------

function isOpen(view, row, col) {
  return (view.open || []).some(([r, c]) => r === row && c === col);
}

function renderSolo(root, view, ctx) {
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

// --- keys ------------------------------------------------------------------------------------

// Presses the keyed control as a click would (its own checks apply); false when it cannot be.
function press(root, key) {
  const control = root.querySelector(`[data-key="${key}"]`);
  if (!control || control.disabled) return false;
  control.click();
  return true;
}

// 1-9 and 0 pick the cards of the hand in the order shown, A and B press the card's two targets
// (which claim once two cards are chosen) and P passes. The second card sends the focus to the
// targets (choose()), so that Enter claims the first too.
function tableShortcut(event, view) {
  const root = document.getElementById("play-board");
  const key = event.key.toLowerCase();
  if (/^[0-9]$/.test(key)) {
    const card = (view.hand || [])[key === "0" ? 9 : Number(key) - 1];
    return Boolean(card) && press(root, `card-${card.id}`);
  }
  if (key === "a" || key === "b") return press(root, `top-option-${key === "a" ? 0 : 1}`);
  if (key === "p") return press(root, "pass");
  return false;
}

// --- the renderer API ------------------------------------------------------------------------

export function keyShortcut(event, view) {
  if (view.size || !view.hand) return false;
  return tableShortcut(event, view);
}

export function keysNote(view) {
  if (view.size || !view.hand) return null;
  return gettext("1–9: your cards · A, B: claim that target (¡Mía!) · P: pass");
}


// Read aloud: the card to solve (a new one is read by itself), or in the square the chosen card.
export function readAloud(view, ctx) {
  if (view.size) {
    const cell = ctx.ui.cell ? view.square[ctx.ui.cell[0]][ctx.ui.cell[1]] : null;
    return cell ? { key: null, text: cell.options.map(optionText).join(", ") } : null;
  }
  const top = view.top;
  if (!top || !top.options) return null;
  return { key: `top-${top.id}`, text: top.options.map(optionText).join(", ") };
}

export function render(root, view, ctx) {
  if (view.size) renderSolo(root, view, ctx);
  else renderTable(root, view, ctx);
}

export function scores(view) {
  // The solo square's column counts solved cards from start to end; its stars are the result's.
  if (view.size) return [view.cleared];
  return view.scores;
}

export function scoreHeading(view) {
  return view.size ? gettext("Cards solved") : null;
}

export function result(view, ctx) {
  if (!view.size) return null;
  if (view.result === "won") {
    return say(
      ngettext(
        "You cleared the square! %(stars)s star.",
        "You cleared the square! %(stars)s stars.",
        view.stars,
      ),
      { stars: view.stars },
    );
  }
  return ctx.spectator
    ? gettext("The square was not cleared this time.")
    : gettext("The deck ran out before the square was cleared. Try again!");
}

// A claim that lost the race for a card is still the child's answer (docs/rules/mia.md): its
// attempt, which only the claimant receives, says whether it was right; the public late_claim
// that follows it is the moment to tell them, on their own screen only, kindly.
function lateClaimMessage(event, ctx) {
  const answer = ctx.ui.lateAnswer;
  ctx.ui.lateAnswer = null;
  const won = ctx.ui.wonBy && ctx.ui.wonBy.round === event.round ? ctx.ui.wonBy.seat : null;
  const quicker = won === null ? null : ctx.seatName(won);
  if (answer && !answer.correct) {
    const why = wrongWhy(answer.operands, answer.operator, answer.expected, answer.answer);
    return quicker
      ? say(gettext("Not quite: %(why)s. %(name)s took that card."), { why, name: quicker })
      : say(gettext("Not quite: %(why)s. Someone else took that card."), { why });
  }
  return quicker
    ? say(gettext("Right! %(name)s was quicker this time."), { name: quicker })
    : gettext("Right! Someone else was quicker this time.");
}

// Who got the card right, when a calm table's card closes (docs/rules/mia.md).
function closedText(right, ctx) {
  if (!right.length) return gettext("Nobody got that card right.");
  const names = right.map((seat) => who(seat, ctx)).join(", ");
  return say(gettext("Right on that card: %(names)s."), { names });
}

// The card closed: who got it right is on the board (the view's last_closed); the child whose
// own answer was wrong is told why, on their screen only (their attempt, which only they receive).
function cardClosedMessage(event, ctx) {
  const answer = ctx.ui.calmAnswer;
  ctx.ui.calmAnswer = null;
  ctx.ui.closedRound = event.round;
  ctx.ui.feedback = null; // what was said of an earlier card is over
  const right = closedText(event.right, ctx);
  if (answer && !answer.correct) {
    const why = wrongWhy(answer.operands, answer.operator, answer.expected, answer.answer);
    ctx.ui.feedback = say(gettext("Not quite: %(why)s. Those two cards wait one round."), { why });
    return `${ctx.ui.feedback} ${right}`;
  }
  return right;
}

export function describe(event, ctx) {
  const name = event.seat === undefined || event.seat === null ? "" : who(event.seat, ctx);
  switch (event.type) {
    case "attempt":
      if (ctx.isMe(event.seat) && event.scored === false) ctx.ui.lateAnswer = event;
      if (ctx.isMe(event.seat) && event.calm) ctx.ui.calmAnswer = event;
      return null;
    case "answered":
      // A calm table: the others learn only that a player is done with the card.
      if (ctx.isMe(event.seat)) {
        // Only a claim has an attempt (which came just before): without one, the child passed.
        return ctx.ui.calmAnswer
          ? gettext("You answered. Waiting for the others…")
          : gettext("You passed. Waiting for the others…");
      }
      return say(gettext("%(name)s answered."), { name });
    case "card_closed":
      return cardClosedMessage(event, ctx);
    case "late_claim": {
      // The others are not told: the late claimant's cards stay unseen, and a table of children
      // need not hear who was slower.
      if (!ctx.isMe(event.seat)) return null;
      const message = lateClaimMessage(event, ctx);
      ctx.ui.feedback = message;
      return message;
    }
    case "timed_out":
      return ctx.isMe(event.seat) ? gettext("Time is up for that card. Have a go at the next one!") : null;
    case "claim_won": {
      ctx.ui.wonBy = { round: event.round, seat: event.seat };
      const message = say(
        ngettext(
          "%(name)s: %(equation)s. ¡Mía! %(count)s card won.",
          "%(name)s: %(equation)s. ¡Mía! %(count)s cards won.",
          event.cards_taken,
        ),
        { name, equation: equation(event.values, event.op, event.target), count: event.cards_taken },
      );
      if (ctx.isMe(event.seat)) ctx.ui.feedback = null;
      return message;
    }
    case "wrong_claim": {
      const why = wrongWhy(event.values, event.op, event.result, event.target);
      if (ctx.isMe(event.seat)) {
        ctx.ui.feedback = say(gettext("Not this time: %(why)s. Those two cards wait one round."), { why });
      }
      return say(gettext("%(name)s claimed wrongly: %(why)s."), { name, why });
    }
    case "passed":
      return say(gettext("%(name)s passed."), { name });
    case "extra_time":
      if (event.until === null) {
        return say(gettext("%(name)s swapped an Extra time card for a new card."), { name });
      }
      return say(gettext("%(name)s played Extra time."), { name });
    case "extra_time_over":
      return gettext("Extra time is over: everybody may claim again.");
    case "nobody_solved":
      return gettext("Nobody solved it: a new card goes on the pile.");
    case "revealed": {
      const card = event.card || {};
      if (card.kind === "recycling") {
        return gettext("Recycling! Everyone takes 2 cards from the player on their right.");
      }
      if (card.kind === "twister") return gettext("Twister! Everyone passes their hand to the right.");
      if (card.kind === "mirror") return gettext("Mirror! On the next card solved, + and − swap.");
      if (!card.options) return null;
      // At a calm table the news of the card that just closed stays on the board.
      if (ctx.ui.closedRound !== event.round - 1) ctx.ui.feedback = null;
      return say(gettext("New card: %(first)s or %(second)s."), {
        first: optionShown(card.options[0]),
        second: optionShown(card.options[1]),
      });
    }
    case "cards_returned":
      return say(gettext("%(name)s got the set-aside cards back."), { name });
    case "numbers_reshuffled":
      return gettext("The used number cards were shuffled into a new deck.");
    case "solved": {
      ctx.ui.feedback = null;
      const option = event.card.options[event.option];
      return say(
        ngettext(
          "Solved: %(equation)s! %(left)s card left.",
          "Solved: %(equation)s! %(left)s cards left.",
          event.left,
        ),
        {
          equation: equation(
            event.numbers.map((c) => c.value),
            option.op,
            option.target,
          ),
          left: event.left,
        },
      );
    }
    case "wrong_solve": {
      const why = wrongWhy(event.numbers.map((c) => c.value), event.op, event.result, event.target);
      ctx.ui.feedback = say(gettext("Not quite: %(why)s. Try another pair."), { why });
      return say(gettext("Not quite: %(why)s."), { why });
    }
    case "swapped":
      return say(
        ngettext(
          "Two cards swapped (%(swaps)s swap so far).",
          "Two cards swapped (%(swaps)s swaps so far).",
          event.swaps,
        ),
        { swaps: event.swaps },
      );
    case "cards_opened":
      return gettext("New cards are open.");
    default:
      return null;
  }
}

export function errorMessage(code) {
  switch (code) {
    case "stale_round":
      return gettext("Too late: that card is gone. Look at the new one!");
    case "not_extra_time":
      return gettext("Only an Extra time card gives you more time.");
    case "wild_value_unexpected":
      return gettext("Only a Wild card needs a number chosen for it.");
    case "card_not_in_hand":
    case "not_in_hand":
      return gettext("That card is not in your hand any more.");
    case "duplicate_card":
    case "same_card":
      return gettext("Choose two different cards.");
    case "not_a_number_card":
      return gettext("Extra time cannot be part of a claim.");
    case "wild_value_required":
      return gettext("Tell us which number your Wild is.");
    case "window_open":
      return gettext("Your Extra time is already running.");
    case "blocked_card":
      return gettext("That card is not open yet: pick a green one.");
    case "empty_cell":
      return gettext("That card is already solved.");
    case "deck_short":
      return gettext("The deck has too few cards for a swap.");
    case "not_active":
      return gettext("Wait for the next card: you cannot claim this one now.");
    default:
      return null;
  }
}
