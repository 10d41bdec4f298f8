// ¡Mía! at the table (express, party, canada47; docs/rules/mia.md): the card to solve and its
// targets, which claim once two cards are chosen, the hand, the Wild's numbers, pass and Extra time,
// the pile and the players; and the shortcut keys.
import { h } from "../../dom.js";
import { gettext, ngettext } from "../../i18n.js";
import { readAs, withDots } from "../../numbers.js";
import * as roving from "../../roving.js";
import { say, who } from "../../table.js";
import { choose, claimStep, handSection, optionButtons, selection, send } from "./choosing.js";
import { cardText, closedText, optionFace, optionName, optionText } from "./faces.js";

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

export function renderTable(root, view, ctx) {
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
export function tableShortcut(event, view) {
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
