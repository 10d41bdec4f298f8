// SUM (docs/rules/sum.md): the centre number, the player's hand, the equation being built from
// it, draws, wild cards and Rotation. The child taps cards in the order the equation reads; the
// server judges the equation, so a wrong one is a recorded try, never blocked here.
import { h } from "../dom.js";
import { gettext, ngettext } from "../i18n.js";
import { ltr } from "../../numerals.js";
import { readAs, withDots } from "../numbers.js";
import { isMyTurn, say, sendThenRerender } from "../table.js";

const OPERATION_FACE = { "+": "+", "-": "−", x: "×", "÷": "÷" };

function operationName(op) {
  switch (op) {
    case "+":
      return gettext("plus");
    case "-":
      return gettext("minus");
    case "x":
      return gettext("times");
    default:
      return gettext("divided by");
  }
}

function wildName(wild) {
  switch (wild) {
    case "propagation":
      return gettext("Propagation");
    case "neutralization":
      return gettext("Neutralization");
    case "radicalization":
      return gettext("Radicalization");
    default:
      return gettext("Rotation");
  }
}

function wildHelp(wild) {
  switch (wild) {
    case "propagation":
      return gettext("Every other player draws a number card.");
    case "neutralization":
      return gettext("Give one other card of your hand back to its deck.");
    case "radicalization":
      return gettext("The centre number goes under the deck and a new one is turned up.");
    default:
      return gettext("Everyone passes one card to the player on their left.");
  }
}

const face = (card) =>
  card.kind === "number"
    ? String(card.value)
    : card.kind === "operation"
      ? OPERATION_FACE[card.op]
      : wildName(card.wild);

// A number card's face has its ten-frames beside it for a child with dots.
const drawnFace = (card, ctx) => (card.kind === "number" ? withDots(ctx, card.value) : face(card));

// What the read-aloud says for a card: its number or its operation (a wild card: nothing).
const cardReading = (card) =>
  card.kind === "number"
    ? { read: readAs(card.value) }
    : card.kind === "operation"
      ? { read: readAs(OPERATION_FACE[card.op]) }
      : {};

const cardName = (card) =>
  card.kind === "number"
    ? String(card.value)
    : card.kind === "operation"
      ? operationName(card.op)
      : say(gettext("wild card %(name)s"), { name: wildName(card.wild) });

function visibleHand(view) {
  return Array.isArray(view.hand) ? view.hand : [];
}

// The selection lives in ctx.ui; cards that left the hand (played, passed, returned) drop out.
function tidySelection(ui, hand) {
  const held = new Set(hand.map((card) => card.id));
  ui.equation = (ui.equation || []).filter((id) => held.has(id));
  for (const key of ["wild", "target", "rotate"]) {
    if (!held.has(ui[key])) ui[key] = null;
  }
}

function situation(view, ctx) {
  const playing = !ctx.spectator && !view.outcome;
  const rotation = view.rotation;
  const mustChooseForRotation =
    playing &&
    rotation !== null &&
    rotation !== undefined &&
    !rotation.chosen[ctx.seat] &&
    (view.active || []).includes(ctx.seat);
  const myTurn = !rotation && isMyTurn(view, ctx);
  return { playing, myTurn, mustChooseForRotation };
}

function tapCard(card, view, ctx) {
  const { ui } = ctx;
  const { mustChooseForRotation } = situation(view, ctx);
  const hand = visibleHand(view);
  const wild = hand.find((c) => c.id === ui.wild);
  if (mustChooseForRotation) {
    ui.rotate = ui.rotate === card.id ? null : card.id;
  } else if (wild && wild.wild === "neutralization" && card.id !== wild.id) {
    ui.target = ui.target === card.id ? null : card.id;
  } else if (card.kind === "wild") {
    ui.wild = ui.wild === card.id ? null : card.id;
    ui.target = null;
  } else {
    ui.wild = null;
    ui.target = null;
    ui.equation = ui.equation.includes(card.id)
      ? ui.equation.filter((id) => id !== card.id)
      : [...ui.equation, card.id];
  }
  ctx.rerender();
}

function cardButton(card, view, ctx) {
  const { ui } = ctx;
  const position = ui.equation.indexOf(card.id);
  const chosen =
    position >= 0 || ui.wild === card.id || ui.target === card.id || ui.rotate === card.id;
  let label = cardName(card);
  if (position >= 0) {
    label = say(gettext("%(card)s, place %(place)s in your equation"), {
      card: label,
      place: position + 1,
    });
  } else if (ui.target === card.id) {
    label = say(gettext("%(card)s, chosen to go back to its deck"), { card: label });
  } else if (ui.rotate === card.id) {
    label = say(gettext("%(card)s, chosen to pass on"), { card: label });
  }
  return h(
    "button",
    {
      type: "button",
      class: `sum-card sum-card-${card.kind}${card.drawn_this_turn ? " is-fresh" : ""}`,
      "aria-pressed": chosen ? "true" : "false",
      "aria-label": label,
      dataset: { key: `hand-${card.id}`, card: String(card.id), ...cardReading(card) },
      onclick: () => tapCard(card, view, ctx),
    },
    h("span", { class: "sum-card-face", "aria-hidden": "true" }, drawnFace(card, ctx)),
    position >= 0
      ? h("span", { class: "sum-card-order", "aria-hidden": "true" }, position + 1)
      : null,
  );
}

function playerList(view, ctx) {
  return (ctx.seats || []).map((seat) =>
    h(
      "li",
      { class: view.turn === seat.seat ? "is-turn" : "" },
      say(
        ngettext(
          "%(name)s: %(hand)s card in hand, %(pile)s in the completed pile",
          "%(name)s: %(hand)s cards in hand, %(pile)s in the completed pile",
          view.hand_counts[seat.seat],
        ),
        { name: seat.name, hand: view.hand_counts[seat.seat], pile: view.pile_counts[seat.seat] },
      ),
    ),
  );
}

// The game ends with no centre card when one is needed and the number deck is empty (RULINGS 2):
// the table says so rather than showing an empty card.
const hasCentre = (view) => view.centre !== null && view.centre !== undefined;

function tableSection(view, ctx) {
  const centre = hasCentre(view)
    ? h(
        "div",
        { class: "sum-centre" },
        h("span", { class: "sum-centre-caption" }, gettext("Make this number")),
        h(
          "span",
          {
            class: "sum-card sum-card-number sum-card-centre",
            role: "img",
            "aria-label": say(gettext("Centre number %(value)s"), { value: view.centre }),
            dataset: { centre: String(view.centre), read: readAs(view.centre) },
          },
          withDots(ctx, view.centre),
        ),
      )
    : h(
        "div",
        { class: "sum-centre sum-centre-none" },
        h(
          "p",
          { class: "sum-centre-caption", dataset: { noCentre: "" } },
          gettext("No centre card: the number deck has run out."),
        ),
      );
  return h("section", { class: "sum-table", "aria-label": gettext("Table") }, centre);
}

// The decks and the other players come after the hand and the buttons, so that a phone shows the
// centre card, the hand and "Check my equation" on its first screen.
function factsSection(view, players) {
  return h(
    "section",
    { class: "sum-facts", "aria-label": gettext("Decks and players") },
    h(
      "ul",
      { class: "sum-decks" },
      h(
        "li",
        {},
        say(gettext("Number deck: %(count)s cards"), { count: view.number_deck_count }),
      ),
      h(
        "li",
        {},
        say(gettext("Operation deck: %(count)s cards"), { count: view.operation_deck_count }),
      ),
    ),
    h("ul", { class: "sum-players" }, players),
  );
}

function equationSection(view, ctx, state) {
  const { ui } = ctx;
  const byId = new Map(visibleHand(view).map((card) => [card.id, card]));
  const chosen = ui.equation.map((id) => byId.get(id));
  const clear = () => {
    ui.equation = [];
  };
  const strip = chosen.length
    ? h(
        "ol",
        { class: "sum-equation-cards", dataset: { roving: "equation" } },
        chosen.map((card, index) =>
          h(
            "li",
            {},
            h(
              "button",
              {
                type: "button",
                class: `sum-card sum-card-${card.kind}`,
                "aria-label": say(gettext("Take %(card)s out of the equation (place %(place)s)"), {
                  card: cardName(card),
                  place: index + 1,
                }),
                dataset: { key: `equation-${card.id}`, ...cardReading(card) },
                onclick: () => {
                  ui.equation = ui.equation.filter((id) => id !== card.id);
                  ctx.rerender();
                },
              },
              drawnFace(card, ctx),
            ),
          ),
        ),
      )
    : h(
        "p",
        { class: "sum-equation-empty" },
        gettext("Tap your cards in order to build an equation."),
      );
  return h(
    "section",
    { class: "sum-equation", "aria-label": gettext("Your equation") },
    h("h2", {}, gettext("Your equation")),
    // The equation as laid, left to right on every page (an equation read from the right would
    // be another one): its cards, then "= centre".
    h(
      "div",
      { class: "sum-equation-line", dir: "ltr" },
      strip,
      hasCentre(view)
        ? h("span", { class: "sum-equals", "aria-hidden": "true" }, `= ${view.centre}`)
        : null,
    ),
    h(
      "div",
      { class: "sum-actions", dataset: { roving: "check" } },
      h(
        "button",
        {
          type: "button",
          class: "button",
          disabled: !(state.myTurn && chosen.length > 0 && view.wrong_left > 0),
          dataset: { key: "check" },
          onclick: () => sendThenRerender(ctx, { type: "equation", cards: [...ui.equation] }, clear),
        },
        gettext("Check my equation"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "button button-secondary",
          disabled: chosen.length === 0,
          dataset: { key: "clear" },
          onclick: () => {
            clear();
            ctx.rerender();
          },
        },
        gettext("Clear"),
      ),
    ),
  );
}

function turnSection(view, ctx, state) {
  const numbersLeft = view.number_deck_count > 0;
  const operationsLeft = view.operation_deck_count > 0;
  const canDraw = state.myTurn && view.draws_left > 0;
  const facts = state.myTurn
    ? h(
        "p",
        { class: "sum-turn-facts" },
        say(gettext("Draws left this turn: %(draws)s. Tries left: %(tries)s."), {
          draws: view.draws_left,
          tries: view.wrong_left,
        }),
      )
    : null;
  return h(
    "section",
    { class: "sum-turn", "aria-label": gettext("Draw or end the turn") },
    facts,
    h(
      "div",
      { class: "sum-actions", dataset: { roving: "turn" } },
      h(
        "button",
        {
          type: "button",
          class: "button",
          disabled: !(canDraw && numbersLeft),
          dataset: { key: "draw-numbers" },
          onclick: () => sendThenRerender(ctx, { type: "draw", from: "numbers" }, () => {}),
        },
        gettext("Draw a number card"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "button",
          disabled: !(canDraw && operationsLeft),
          dataset: { key: "draw-operations" },
          onclick: () => sendThenRerender(ctx, { type: "draw", from: "operations" }, () => {}),
        },
        gettext("Draw an operation card"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "button button-secondary",
          disabled: !(state.myTurn && view.can_end_turn),
          dataset: { key: "end-turn" },
          onclick: () => sendThenRerender(ctx, { type: "end_turn" }, () => {}),
        },
        gettext("End my turn"),
      ),
    ),
  );
}

function wildSection(view, ctx, state) {
  const { ui } = ctx;
  const hand = visibleHand(view);
  const card = hand.find((c) => c.id === ui.wild);
  if (!card || state.mustChooseForRotation) return null;
  const needsOther = card.wild === "neutralization" || card.wild === "rotation";
  let note = null;
  if (card.drawn_this_turn) {
    note = gettext("You drew this card this turn: play it on a later turn.");
  }
  else if (needsOther && hand.length < 2) note = gettext("You need another card in your hand.");
  else if (card.wild === "neutralization" && ui.target === null) {
    note = gettext("Now tap the card to give back.");
  }
  const move = { type: "wild", card: card.id };
  if (card.wild === "neutralization") move.target = ui.target;
  const ready =
    state.myTurn &&
    !card.drawn_this_turn &&
    !(needsOther && hand.length < 2) &&
    !(card.wild === "neutralization" && ui.target === null);
  const clear = () => {
    ui.wild = null;
    ui.target = null;
  };
  return h(
    "section",
    { class: "sum-wild", "aria-label": wildName(card.wild) },
    h("h2", {}, wildName(card.wild)),
    h("p", {}, wildHelp(card.wild)),
    note ? h("p", { class: "sum-note" }, note) : null,
    h(
      "div",
      { class: "sum-actions", dataset: { roving: "wild" } },
      h(
        "button",
        {
          type: "button",
          class: "button",
          disabled: !ready,
          dataset: { key: "play-wild" },
          onclick: () => sendThenRerender(ctx, move, clear),
        },
        say(gettext("Play %(name)s"), { name: wildName(card.wild) }),
      ),
      h(
        "button",
        {
          type: "button",
          class: "button button-secondary",
          dataset: { key: "cancel-wild" },
          onclick: () => {
            clear();
            ctx.rerender();
          },
        },
        gettext("Cancel"),
      ),
    ),
  );
}

function rotationSection(view, ctx, state) {
  const rotation = view.rotation;
  if (!rotation) return null;
  const { ui } = ctx;
  const left = ctx.seatName((ctx.seat + 1) % view.players);
  let body;
  if (state.mustChooseForRotation) {
    body = [
      h("p", {}, say(gettext("Choose one card to give to %(name)s."), { name: left })),
      h(
        "button",
        {
          type: "button",
          class: "button",
          disabled: ui.rotate === null,
          dataset: { key: "rotate" },
          onclick: () =>
            sendThenRerender(ctx, { type: "rotate", card: ui.rotate }, () => {
              ui.rotate = null;
            }),
        },
        gettext("Give this card"),
      ),
    ];
  } else if (!ctx.spectator && rotation.my_choice !== null && rotation.my_choice !== undefined) {
    const card = visibleHand(view).find((c) => c.id === rotation.my_choice);
    body = h(
      "p",
      {},
      say(gettext("You give %(card)s. Waiting for the others."), {
        card: card ? cardName(card) : "?",
      }),
    );
  } else {
    body = h("p", {}, gettext("The players are choosing a card to pass to their left."));
  }
  return h(
    "section",
    { class: "sum-rotation", role: "group", "aria-label": gettext("Rotation") },
    h("h2", {}, gettext("Rotation")),
    body,
  );
}

// Focus must not fall to the page when the focused control disappears or becomes disabled (a
// turn ends): it goes to the game area, so Tab goes on from there.
function keepFocusInside(root, key) {
  if (!key) return;
  const target = [...root.querySelectorAll("[data-key]")].find((el) => el.dataset.key === key);
  if (target && !target.disabled) target.focus({ preventScroll: true });
  else root.focus({ preventScroll: true });
}

export function render(root, view, ctx) {
  const focused = root.contains(document.activeElement)
    ? document.activeElement.closest("[data-key]")
    : null;
  const hand = visibleHand(view);
  tidySelection(ctx.ui, hand);
  const state = situation(view, ctx);
  const parts = [tableSection(view, ctx)];
  if (!ctx.spectator) {
    parts.push(
      rotationSection(view, ctx, state),
      h(
        "section",
        { class: "sum-hand", "aria-label": gettext("Your hand") },
        h("h2", {}, gettext("Your hand")),
        hand.length
          ? h(
              "ul",
              { class: "sum-hand-cards", dataset: { roving: "hand" } },
              hand.map((card) => h("li", {}, cardButton(card, view, ctx))),
            )
          : h("p", {}, gettext("Your hand is empty.")),
      ),
      wildSection(view, ctx, state),
      equationSection(view, ctx, state),
      turnSection(view, ctx, state),
    );
  } else {
    parts.push(rotationSection(view, ctx, state));
  }
  parts.push(factsSection(view, playerList(view, ctx)));
  if (!root.hasAttribute("tabindex")) root.setAttribute("tabindex", "-1");
  root.replaceChildren(h("div", { class: "board board-sum" }, parts));
  if (focused) keepFocusInside(root, focused.dataset.key);
}

// 1-9 and 0 tap the cards of the hand in the order shown (into the equation, in order); +, -, x
// (or *) and / tap the first operation card of that sign not yet in the equation, wherever it is
// in the hand (a hand of more than ten cards keeps its operations beyond the digits); C checks
// the equation, N and O draw a number or an operation card, E ends the turn.
const SHORTCUT_KEYS = { c: "check", n: "draw-numbers", o: "draw-operations", e: "end-turn" };
const OPERATION_KEYS = { "+": "+", "-": "-", x: "x", "*": "x", "/": "÷", "÷": "÷" };

export function keyShortcut(event, view, ctx) {
  const root = document.getElementById("play-board");
  const key = event.key.toLowerCase();
  let control = null;
  if (/^[0-9]$/.test(key)) {
    const card = visibleHand(view)[key === "0" ? 9 : Number(key) - 1];
    if (card) control = root.querySelector(`[data-key="hand-${card.id}"]`);
  } else if (OPERATION_KEYS[key]) {
    const op = OPERATION_KEYS[key];
    const card = visibleHand(view).find(
      (c) => c.kind === "operation" && c.op === op && !ctx.ui.equation.includes(c.id),
    );
    if (card) control = root.querySelector(`[data-key="hand-${card.id}"]`);
  } else if (SHORTCUT_KEYS[key]) {
    control = root.querySelector(`[data-key="${SHORTCUT_KEYS[key]}"]`);
  }
  if (!control || control.disabled) return false;
  control.click();
  return true;
}

export function keysNote(view, ctx) {
  if (ctx.spectator) return null;
  return gettext(
    "1–9: your cards · +, -, x, /: an operation card · C: check · N, O: draw a number or an operation · E: end the turn",
  );
}

export function scores(view) {
  return view.pile_counts;
}

// Read aloud: the centre number (a new one is read by itself).
export function readAloud(view) {
  if (!hasCentre(view)) return null;
  return { key: `centre-${view.centre}`, text: readAs(view.centre) };
}

// The equation as the rulebook says it: a pair is the one number it stands for, named after the
// expression ("4+5-6 (two 3 cards used as a 6)"), never brackets, for which there is no card. With
// `result`, its value after it ("4+5-6 (two 3 cards used as a 6) = 3"). The arithmetic is kept left to right on a page read right
// to left; the words after it are the sentence's.
function equationText(event, result = null) {
  const value = result === null ? "" : ` ${ltr(`= ${result}`)}`;
  const pairs = (event.pairs || []).map((card) =>
    say(gettext("two %(card)s cards used as a %(value)s"), { card, value: card * 2 }),
  );
  const named = pairs.length ? ` (${pairs.join(", ")})` : "";
  return `${ltr(event.expression)}${named}${value}`;
}

export function describe(event, ctx) {
  const name = event.seat !== undefined && event.seat !== null ? ctx.seatName(event.seat) : "";
  switch (event.type) {
    case "equation_right":
      return say(
        ngettext(
          "%(name)s made %(equation)s and keeps %(kept)s card.",
          "%(name)s made %(equation)s and keeps %(kept)s cards.",
          event.numbers_kept,
        ),
        { name, equation: equationText(event, event.value), kept: event.numbers_kept },
      );
    case "equation_wrong":
      if (event.reason === "division_not_exact") {
        return say(
          gettext("%(name)s tried %(expression)s, but a division does not come out even."),
          { name, expression: equationText(event) },
        );
      }
      return say(gettext("%(name)s tried %(expression)s: that makes %(value)s, not %(target)s."), {
        name,
        expression: equationText(event),
        value: event.value,
        target: event.target,
      });
    case "draw":
      return event.from === "numbers"
        ? say(gettext("%(name)s drew a number card."), { name })
        : say(gettext("%(name)s drew an operation card."), { name });
    case "centre_revealed":
      return say(gettext("The new centre number is %(value)s."), { value: event.value });
    case "wild_played":
      return say(gettext("%(name)s played %(wild)s."), { name, wild: wildName(event.wild) });
    case "propagation":
      return gettext("Every other player drew a number card.");
    case "neutralization":
      return event.to === "numbers"
        ? say(gettext("%(name)s gave a card back to the number deck."), { name })
        : say(gettext("%(name)s gave a card back to the operation deck."), { name });
    case "radicalization":
      return say(gettext("%(name)s sent the centre number %(value)s under the deck."), {
        name,
        value: event.old_centre,
      });
    case "rotation_started":
      return gettext("Rotation: everyone chooses a card to pass to the left.");
    case "rotation_chosen":
      return say(gettext("%(name)s has chosen a card to pass."), { name });
    case "rotation_done":
      return gettext("Everyone passed a card to the left.");
    case "turn_start":
      return say(gettext("It is %(name)s's turn."), { name });
    case "game_end":
      if (event.reason === "hand_empty") return gettext("A player has no cards left!");
      if (event.reason === "stalemate") {
        return gettext("Nobody can make an equation any more: the biggest pile wins.");
      }
      return gettext("The number deck is empty: the biggest pile wins.");
    default:
      return null;
  }
}
