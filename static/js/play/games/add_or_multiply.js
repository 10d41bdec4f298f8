// Add or Multiply? (docs/rules/add_or_multiply.md): each round every player secretly gives one
// number card to each opponent and plays one operation card on themself; after the reveal each
// student types their own round score.
import { h } from "../dom.js";
import { gettext } from "../i18n.js";
import { expression, ltr, western } from "../../numerals.js";
import { readAs, withDots } from "../numbers.js";
import { say, who } from "../table.js";

function opName(op) {
  return op === "M" ? gettext("Multiply") : gettext("Add");
}

function sign(operator) {
  return operator === "x" || operator === "M" ? "×" : "+";
}

function opponents(view, me) {
  return [...Array(view.players).keys()].filter((seat) => seat !== me);
}

function counts(values) {
  const map = new Map();
  for (const value of values) map.set(value, (map.get(value) || 0) + 1);
  return map;
}

function choiceState(ctx, view) {
  const ui = ctx.ui;
  if (ui.round !== view.round || ui.phase !== view.phase) {
    Object.assign(ui, { round: view.round, phase: view.phase, give: {}, op: null, typed: "" });
  }
  return ui;
}

// --- the choose phase ------------------------------------------------------------------------

function choiceComplete(view, ctx) {
  return opponents(view, ctx.seat).every((seat) => ctx.ui.give[seat] !== undefined) && Boolean(ctx.ui.op);
}

// A choice (a number for a player, the operation). Once it completes the round's choice the focus
// goes to "Play these cards", the next step, so that Enter plays them, whichever way the choices
// were made (shortcut keys, arrows and Enter, or taps).
function choose(view, ctx, change) {
  const was = choiceComplete(view, ctx);
  change();
  ctx.rerender();
  if (was || !choiceComplete(view, ctx)) return;
  const play = document.querySelector('#play-board [data-key="choose"]');
  if (play && !play.disabled) play.focus({ preventScroll: true });
}

function chooseSection(view, ctx) {
  const ui = ctx.ui;
  const me = ctx.seat;
  const mine = view.cards_left[me];
  if (view.chosen[me]) {
    const choice = view.my_choice;
    return h(
      "section",
      { class: "game-section" },
      h("h2", {}, gettext("Your cards are on the table")),
      choice
        ? h(
            "p",
            { dataset: { key: "my-choice" } },
            opponents(view, me)
              .map((seat) =>
                say(gettext("%(number)s for %(name)s"), {
                  number: choice.give[String(seat)],
                  name: ctx.seatName(seat),
                }),
              )
              .concat(say(gettext("%(operation)s for you"), { operation: opName(choice.op) }))
              .join(" · "),
          )
        : null,
      h("p", { class: "game-note" }, gettext("Waiting for the others to choose.")),
    );
  }
  const available = counts(mine.numbers);
  const givenElsewhere = (seat) => {
    const used = new Map();
    for (const [other, value] of Object.entries(ui.give)) {
      if (Number(other) !== seat) used.set(value, (used.get(value) || 0) + 1);
    }
    return used;
  };
  const fieldsets = opponents(view, me).map((seat) => {
    const used = givenElsewhere(seat);
    const row = h(
      "div",
      { class: "game-row", dataset: { roving: `give-${seat}` } },
      [...available.keys()]
        .sort((a, b) => a - b)
        .map((value) => {
          const left = available.get(value) - (used.get(value) || 0);
          return h(
            "button",
            {
              type: "button",
              class: "card-button",
              "aria-pressed": String(ui.give[seat] === value),
              "aria-label": say(gettext("Give %(number)s to %(name)s"), {
                number: value,
                name: ctx.seatName(seat),
              }),
              disabled: left <= 0,
              dataset: { key: `give-${seat}-${value}`, value: String(value), read: readAs(value) },
              onclick: () =>
                choose(view, ctx, () => {
                  if (ui.give[seat] === value) delete ui.give[seat];
                  else ui.give[seat] = value;
                }),
            },
            withDots(ctx, value),
          );
        }),
    );
    return h(
      "fieldset",
      { dataset: { seat: String(seat) } },
      h("legend", {}, say(gettext("A number for %(name)s"), { name: ctx.seatName(seat) })),
      row,
    );
  });
  const ops = counts(mine.operations);
  const opRow = h(
    "div",
    { class: "game-row", dataset: { roving: "operation" } },
    ["A", "M"].map((op) =>
      h(
        "button",
        {
          type: "button",
          class: "option-button",
          "aria-pressed": String(ui.op === op),
          disabled: !ops.get(op),
          dataset: { key: `op-${op}`, op, read: sign(op) },
          onclick: () =>
            choose(view, ctx, () => {
              ui.op = ui.op === op ? null : op;
            }),
        },
        `${opName(op)} (${sign(op)})`,
      ),
    ),
  );
  const ready = choiceComplete(view, ctx);
  return h(
    "section",
    { class: "game-section" },
    h("h2", {}, say(gettext("Round %(round)s of %(rounds)s: choose your cards"), view)),
    h("div", { class: "aom-give" }, fieldsets),
    h(
      "fieldset",
      { class: "aom-ops" },
      h("legend", {}, gettext("An operation for you: add or multiply the two numbers you get")),
      opRow,
    ),
    h(
      "button",
      {
        type: "button",
        class: "action-button",
        disabled: !ready,
        dataset: { key: "choose" },
        onclick: async () => {
          if (!ready || ctx.pending) return;
          const give = Object.fromEntries(
            opponents(view, me).map((seat) => [String(seat), ui.give[seat]]),
          );
          await ctx.send({ type: "choose", give, op: ui.op });
        },
      },
      gettext("Play these cards"),
    ),
  );
}

// --- the score phase -------------------------------------------------------------------------

function currentPlays(view) {
  const last = view.rounds_played[view.rounds_played.length - 1];
  return last && last.round === view.round ? last.plays : [];
}

function scoreSection(view, ctx) {
  const ui = ctx.ui;
  const me = ctx.seat;
  const mine = currentPlays(view).find((play) => play.seat === me);
  if (!mine) return null;
  const [a, b] = mine.received;
  // The equation in a span of its own, so a phone never breaks it across two lines.
  const question = [
    say(gettext("You got %(a)s and %(b)s and chose %(operation)s:"), { a, b, operation: opName(mine.op) }),
    " ",
    expression(h("span", { class: "aom-equation" }, `${a} ${sign(mine.operator)} ${b} = ?`)),
  ];
  if (view.typed[me] !== null) {
    return h(
      "section",
      { class: "game-section" },
      h("h2", {}, gettext("Your round score")),
      h("p", {}, say(gettext("You typed %(value)s. Waiting for the others."), { value: view.typed[me] })),
    );
  }
  // Text, not type=number: a child on an Arabic keyboard types ٧, which a number field drops.
  const input = h("input", {
    id: "aom-score",
    type: "text",
    inputmode: "numeric",
    required: true,
    autocomplete: "off",
    value: ui.typed,
    dataset: { key: "score-input" },
    oninput: (event) => {
      ui.typed = event.target.value;
    },
  });
  const form = h(
    "form",
    {
      class: "aom-score-form",
      onsubmit: async (event) => {
        event.preventDefault();
        const typed = western(ui.typed).trim();
        const value = /^[0-9]+$/.test(typed) ? Number(typed) : NaN;
        if (!Number.isInteger(value) || value < 0 || value > 999) {
          input.setCustomValidity(gettext("Type a whole number from 0 to 999."));
          input.reportValidity();
          return;
        }
        input.setCustomValidity("");
        await ctx.send({ type: "score", value });
      },
    },
    h(
      "div",
      {},
      h("label", { for: "aom-score" }, ...question),
      // The two numbers drawn as well, for a child with dots (the label above says them).
      ctx.dots
        ? h("p", { class: "aom-sum", "aria-hidden": "true", dir: "ltr" }, withDots(ctx, a), ` ${sign(mine.operator)} `, withDots(ctx, b), " = ?")
        : null,
      input,
    ),
    h("button", { type: "submit", class: "action-button", dataset: { key: "score-send" } }, gettext("That's my score")),
  );
  return h("section", { class: "game-section" }, h("h2", {}, gettext("Work out your round score")), form);
}

// --- what everybody sees ---------------------------------------------------------------------

function historySection(view, ctx) {
  if (view.rounds_played.length === 0) return null;
  const rows = view.rounds_played.flatMap((round) =>
    round.plays.map((play) =>
      h(
        "tr",
        {},
        h("td", {}, String(round.round)),
        h("th", { scope: "row" }, who(play.seat, ctx)),
        h("td", {}, expression(`${play.received[0]} ${sign(play.operator)} ${play.received[1]}`)),
        h("td", {}, play.score === null ? "?" : String(play.score)),
      ),
    ),
  );
  return h(
    "section",
    { class: "game-section" },
    h(
      "table",
      { class: "aom-table" },
      h("caption", {}, gettext("Rounds played")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, gettext("Round")),
          h("th", { scope: "col" }, gettext("Player")),
          h("th", { scope: "col" }, gettext("Cards received")),
          h("th", { scope: "col" }, gettext("Score")),
        ),
      ),
      h("tbody", {}, rows.reverse()),
    ),
  );
}

function tableSection(view, ctx) {
  return h(
    "section",
    { class: "game-section" },
    h("h2", {}, gettext("Cards left")),
    h(
      "ul",
      { class: "others" },
      ctx.seats.map((seat) => {
        const left = view.cards_left[seat.seat];
        const state =
          view.phase === "choose"
            ? view.chosen[seat.seat]
              ? gettext("has chosen")
              : gettext("is choosing")
            : view.phase === "score"
              ? view.typed[seat.seat] === null
                ? gettext("is working out the score")
                : say(gettext("typed %(value)s"), { value: view.typed[seat.seat] })
              : "";
        return h(
          "li",
          { dataset: { seat: String(seat.seat) } },
          h("strong", {}, who(seat.seat, ctx)),
          state ? ` (${state})` : "",
          `: ${[left.numbers.join(" "), left.operations.map(sign).join(" ")].filter(Boolean).join(" · ")}`,
        );
      }),
    ),
  );
}

// --- the renderer API ------------------------------------------------------------------------

export function render(root, view, ctx) {
  // Where the focus was: on the table itself (the last control went away, waiting for the
  // others) it goes to the score field when that appears, so the child types at once.
  const before = document.activeElement;
  const hadFocus = Boolean(before) && root.contains(before);
  const keyed = hadFocus && before !== root ? before.closest("[data-key]") : null;
  choiceState(ctx, view);
  const parts = [];
  if (!ctx.spectator && !view.outcome) {
    if (view.phase === "choose") parts.push(chooseSection(view, ctx));
    if (view.phase === "score") parts.push(scoreSection(view, ctx));
  } else if (ctx.spectator && !view.outcome) {
    parts.push(
      h(
        "p",
        { class: "game-note" },
        say(gettext("Round %(round)s of %(rounds)s"), view),
      ),
    );
  }
  if (ctx.ui.feedback) parts.push(h("p", { class: "claim-feedback" }, ctx.ui.feedback));
  parts.push(tableSection(view, ctx));
  parts.push(historySection(view, ctx));
  root.replaceChildren(...parts.filter(Boolean));
  const field = root.querySelector('[data-key="score-input"]');
  const stillThere = keyed && root.querySelector(`[data-key="${keyed.dataset.key}"]`);
  if (hadFocus && field && !stillThere) field.focus({ preventScroll: true });
}

// --- keys ------------------------------------------------------------------------------------

// The opponents in the page's order and the number each has been given so far.
function giving(view, ctx) {
  return opponents(view, ctx.seat).map((seat) => ({ seat, value: ctx.ui.give[seat] }));
}

// Choosing: a digit gives that number to the first opponent still without one (in the page's
// order), Backspace takes back the last one given, A or M picks the operation; once all three
// are chosen the focus goes to "Play these cards", so Enter plays them. Scoring: the score field
// has the focus, so the child types the number and Enter.
export function keyShortcut(event, view, ctx) {
  if (view.phase !== "choose" || view.chosen[ctx.seat]) return false;
  const root = document.getElementById("play-board");
  const key = event.key.toLowerCase();
  let control = null;
  if (/^[0-9]$/.test(key)) {
    const next = giving(view, ctx).find(({ value }) => value === undefined);
    if (!next) return false;
    control = root.querySelector(`[data-key="give-${next.seat}-${key}"]`);
  } else if (key === "backspace") {
    const last = giving(view, ctx)
      .reverse()
      .find(({ value }) => value !== undefined);
    if (!last) return false;
    control = root.querySelector(`[data-key="give-${last.seat}-${last.value}"]`);
  } else if (key === "a" || key === "m") {
    const op = key.toUpperCase();
    // Chosen already: the key keeps it (a click would take it back).
    if (ctx.ui.op !== op) control = root.querySelector(`[data-key="op-${op}"]`);
    else control = root.querySelector('[data-key="choose"]');
  }
  if (!control || control.disabled) return false;
  if (control.dataset.key !== "choose") control.click();
  const play = root.querySelector('[data-key="choose"]');
  if (play && !play.disabled) play.focus({ preventScroll: true });
  return true;
}

export function keysNote(view, ctx) {
  if (ctx.spectator || view.outcome) return null;
  if (view.phase === "score") return gettext("type your round score, then Enter");
  const numbers = ((view.cards_left || [])[ctx.seat] || {}).numbers || [];
  // Numbers to 10: a digit key gives 0 to 9; the 10 card is reached with Tab like any button.
  if (numbers.some((value) => value > 9)) {
    return gettext(
      "0–9: a number for the next player · 10: Tab to its card · Backspace: take it back · A, M: add or multiply · Enter: play these cards",
    );
  }
  if (numbers.some((value) => value > 6)) {
    return gettext(
      "0–9: a number for the next player · Backspace: take it back · A, M: add or multiply · Enter: play these cards",
    );
  }
  return gettext(
    "0–6: a number for the next player · Backspace: take it back · A, M: add or multiply · Enter: play these cards",
  );
}

export function scores(view) {
  return view.totals;
}

// Read aloud: the numbers the child holds while choosing, then the sum or product to work out.
export function readAloud(view, ctx) {
  if (ctx.spectator || view.outcome) return null;
  const me = ctx.seat;
  if (view.phase === "score") {
    const mine = currentPlays(view).find((play) => play.seat === me);
    if (!mine) return null;
    const [a, b] = mine.received;
    return { key: `score-${view.round}`, text: readAs(a, sign(mine.operator), b, "=") };
  }
  const numbers = ((view.cards_left || [])[me] || {}).numbers || [];
  if (view.phase !== "choose" || numbers.length === 0) return null;
  // Each number once, smallest first, as the buttons show them.
  const values = [...new Set(numbers)].sort((x, y) => x - y);
  return { key: `choose-${view.round}`, text: values.join(" ") };
}

export function describe(event, ctx) {
  switch (event.type) {
    case "choice_made":
      return ctx.isMe(event.seat)
        ? gettext("You have chosen your cards.")
        : say(gettext("%(name)s has chosen."), { name: ctx.seatName(event.seat) });
    case "choices_revealed":
      ctx.ui.feedback = null;
      return say(gettext("Round %(round)s: the cards are turned over!"), { round: event.round });
    case "awaiting_scores":
      return ctx.spectator ? null : gettext("Work out your round score and type it.");
    case "attempt": {
      // Each expression and equation one value, kept left to right on a page read right to left.
      const written = `${event.operands[0]} ${sign(event.operator)} ${event.operands[1]}`;
      const values = {
        name: who(event.seat, ctx),
        expression: ltr(written),
        equation: ltr(`${written} = ${event.expected}`),
        answer: event.answer,
        expected: event.expected,
      };
      if (ctx.isMe(event.seat)) {
        ctx.ui.feedback = event.correct
          ? say(gettext("Right! %(equation)s."), values)
          : say(gettext("Not quite: %(equation)s (you typed %(answer)s)."), values);
      }
      return event.correct
        ? say(gettext("%(name)s: %(equation)s. Right!"), values)
        : say(gettext("%(name)s typed %(answer)s for %(expression)s; it is %(expected)s."), values);
    }
    case "round_scored":
      return say(gettext("Round %(round)s scored: %(scores)s."), {
        round: event.round,
        scores: event.scores.map((score, seat) => `${who(seat, ctx)} ${score}`).join(", "),
      });
    case "round_started":
      return say(gettext("Round %(round)s begins."), { round: event.round });
    default:
      return null;
  }
}
