// ADD UP (docs/rules/add_up.md): two rows of cards; the child picks a card of the hand (and a
// joker's value) and puts it on the top or the bottom row, looking for the card that makes the
// two sums equal. Finding the difference is the exercise, so it is never shown.
import { h } from "../dom.js";
import { gettext, ngettext } from "../i18n.js";
import { ltr } from "../../numerals.js";
import { readAs, withDots } from "../numbers.js";
import { isMyTurn, say, sendThenRerender } from "../table.js";

const ROWS = ["top", "bottom"];
const WHITE_VALUES = [0, 1, 2, 3, 4, 5];

const isJoker = (card) => card.kind === "white_joker" || card.kind === "yellow_joker";

function rowName(row) {
  return row === "top" ? gettext("Top row") : gettext("Bottom row");
}

function tableCardName(card) {
  if (card.kind === "white_joker") {
    return say(gettext("white joker worth %(value)s"), { value: card.value });
  }
  if (card.kind === "yellow_joker") {
    return say(gettext("yellow joker worth %(value)s"), { value: card.value });
  }
  return String(card.value);
}

// The name starts with what the card shows (WCAG 2.5.3: a speech-input user says "0–5").
function handCardName(card) {
  if (card.kind === "white_joker") return gettext("0–5: white joker, worth 0 to 5");
  if (card.kind === "yellow_joker") return gettext("10+: yellow joker, worth 10 to 99");
  return String(card.value);
}

// A joker's range is held left to right: in an Arabic hand "0–5" would read "5–0", "10+" "+10".
function handCardFace(card, ctx) {
  if (card.kind === "white_joker") return ltr("0–5");
  if (card.kind === "yellow_joker") return ltr("10+");
  return withDots(ctx, card.value);
}

function situation(view, ctx) {
  return { myTurn: isMyTurn(view, ctx) };
}

function selected(view, ctx) {
  const hand = Array.isArray(view.hand) ? view.hand : [];
  return hand.find((card) => card.id === ctx.ui.card) || null;
}

function readyToPlay(view, ctx) {
  const card = selected(view, ctx);
  if (!card || !situation(view, ctx).myTurn) return false;
  return !isJoker(card) || Number.isInteger(ctx.ui.value);
}

async function playOn(row, view, ctx) {
  const card = selected(view, ctx);
  if (!card) return;
  const move = { type: "play", card: card.id, row };
  if (isJoker(card)) move.value = ctx.ui.value;
  await sendThenRerender(ctx, move, () => {
    ctx.ui.card = null;
    ctx.ui.value = null;
  });
}

function rowSection(row, view, ctx) {
  const cards = view[row] || [];
  const total = view[`${row}_sum`];
  const card = selected(view, ctx);
  return h(
    "section",
    { class: `addup-row addup-row-${row}`, "aria-label": rowName(row) },
    h("h2", { class: "addup-row-title" }, rowName(row)),
    cards.length
      ? h(
          "ul",
          { class: "addup-row-cards", dataset: { row } },
          cards.map((c) =>
            // The name is the item's text (a screen reader in browse mode reads text, not an
            // aria-label on a list item); the face beside it is drawn only.
            h(
              "li",
              {
                class: `addup-card addup-card-${c.kind}`,
                dataset: { card: String(c.id), read: readAs(c.value) },
              },
              h("span", { class: "visually-hidden" }, tableCardName(c)),
              h("span", { "aria-hidden": "true" }, withDots(ctx, c.value)),
            ),
          ),
        )
      : h("p", { class: "addup-row-empty" }, gettext("No cards yet.")),
    h(
      "p",
      { class: "addup-row-sum", dataset: { sum: String(total), read: readAs(total) } },
      say(gettext("Sum: %(sum)s"), { sum: total }),
    ),
    ctx.spectator
      ? null
      : h(
          "button",
          {
            type: "button",
            class: "button addup-row-target",
            disabled: !readyToPlay(view, ctx),
            dataset: { key: `row-${row}`, row },
            onclick: () => playOn(row, view, ctx),
          },
          card
            ? say(gettext("Put %(card)s on the %(row)s"), {
                card: isJoker(card) ? gettext("the joker") : String(card.value),
                row: row === "top" ? gettext("top row") : gettext("bottom row"),
              })
            : row === "top"
              ? gettext("Put a card on the top row")
              : gettext("Put a card on the bottom row"),
        ),
  );
}

// Typing a yellow joker's value must not re-render (the field would lose what is being typed):
// only the two row buttons follow it.
function followTypedValue(input, view, ctx) {
  const typed = input.value.trim();
  ctx.ui.value = /^\d+$/.test(typed) ? Number(typed) : null;
  const ready = readyToPlay(view, ctx);
  const board = input.closest(".board");
  for (const button of board.querySelectorAll(".addup-row-target")) button.disabled = !ready;
}

function jokerValueSection(card, view, ctx) {
  const { ui } = ctx;
  if (card.kind === "white_joker") {
    return h(
      "div",
      {
        class: "addup-joker",
        role: "group",
        "aria-label": gettext("How much is your white joker worth?"),
      },
      h("p", { "aria-hidden": "true" }, gettext("How much is your white joker worth?")),
      h(
        "div",
        { class: "addup-joker-values", dataset: { roving: "joker-values" } },
        WHITE_VALUES.map((value) =>
          h(
            "button",
            {
              type: "button",
              class: "addup-value",
              "aria-pressed": ui.value === value ? "true" : "false",
              dataset: { key: `joker-value-${value}`, read: readAs(value) },
              onclick: () => {
                ui.value = value;
                ctx.rerender();
              },
            },
            String(value),
          ),
        ),
      ),
    );
  }
  return h(
    "div",
    { class: "addup-joker" },
    h(
      "label",
      { for: "addup-yellow-value" },
      gettext("How much is your yellow joker worth? (10 to 99)"),
    ),
    h("input", {
      id: "addup-yellow-value",
      type: "number",
      inputmode: "numeric",
      min: "10",
      max: "99",
      value: Number.isInteger(ui.value) ? String(ui.value) : "",
      dataset: { key: "joker-value-input" },
      oninput: (event) => followTypedValue(event.target, view, ctx),
      onkeydown: (event) => {
        // Enter in the field is a natural "done": nothing to submit, so stay put.
        if (event.key === "Enter") event.preventDefault();
      },
    }),
  );
}

function handSection(view, ctx) {
  const { ui } = ctx;
  const hand = Array.isArray(view.hand) ? view.hand : [];
  const card = selected(view, ctx);
  return h(
    "section",
    { class: "addup-hand", "aria-label": gettext("Your hand") },
    h("h2", {}, gettext("Your hand")),
    hand.length
      ? h(
          "ul",
          { class: "addup-hand-cards", dataset: { roving: "hand" } },
          hand.map((c) =>
            h(
              "li",
              {},
              h(
                "button",
                {
                  type: "button",
                  class: `addup-card addup-card-${c.kind}`,
                  "aria-pressed": ui.card === c.id ? "true" : "false",
                  "aria-label": handCardName(c),
                  dataset: {
                    key: `hand-${c.id}`,
                    card: String(c.id),
                    ...(isJoker(c) ? {} : { read: readAs(c.value) }),
                  },
                  onclick: () => {
                    ui.card = ui.card === c.id ? null : c.id;
                    ui.value = null;
                    ctx.rerender();
                  },
                },
                h("span", { "aria-hidden": "true" }, handCardFace(c, ctx)),
              ),
            ),
          ),
        )
      : h("p", {}, gettext("Your hand is empty.")),
    card && isJoker(card) ? jokerValueSection(card, view, ctx) : null,
    !card && hand.length && situation(view, ctx).myTurn
      ? h("p", { class: "addup-help" }, gettext("Choose a card, then the row to put it on."))
      : null,
  );
}

function tableFacts(view, ctx) {
  return h(
    "ul",
    { class: "addup-facts" },
    h("li", {}, say(gettext("Cards left in the deck: %(count)s"), { count: view.deck_count })),
    (ctx.seats || []).map((seat) =>
      h(
        "li",
        {},
        say(
          ngettext(
            "%(name)s: %(hand)s card in hand",
            "%(name)s: %(hand)s cards in hand",
            view.hand_counts[seat.seat],
          ),
          { name: seat.name, hand: view.hand_counts[seat.seat] },
        ),
      ),
    ),
  );
}

export function render(root, view, ctx) {
  const hand = Array.isArray(view.hand) ? view.hand : [];
  if (!hand.some((card) => card.id === ctx.ui.card)) {
    ctx.ui.card = null;
    ctx.ui.value = null;
  }
  if (ctx.ui.value === undefined) ctx.ui.value = null;
  // The hand first: the page says "Choose a card, then the row to put it on", and the Tab order
  // follows it. (The shell puts the focus back after the re-render.)
  root.replaceChildren(
    h(
      "div",
      { class: "board board-add-up" },
      ctx.spectator ? null : handSection(view, ctx),
      // The two "Put it on the … row" buttons are one Tab stop (one choice: which row).
      h(
        "div",
        { class: "addup-rows", dataset: { roving: "rows" } },
        ROWS.map((row) => rowSection(row, view, ctx)),
      ),
      tableFacts(view, ctx),
    ),
  );
}

// 1-9 and 0 pick the cards of the hand in the order shown, T and B put the chosen one on the top
// or the bottom row (a joker's value is chosen with its own buttons or field).
export function keyShortcut(event, view) {
  const root = document.getElementById("play-board");
  const key = event.key.toLowerCase();
  let control = null;
  if (/^[0-9]$/.test(key)) {
    const card = (view.hand || [])[key === "0" ? 9 : Number(key) - 1];
    if (card) control = root.querySelector(`[data-key="hand-${card.id}"]`);
  } else if (key === "t" || key === "b") {
    control = root.querySelector(`[data-key="row-${key === "t" ? "top" : "bottom"}"]`);
  }
  if (!control || control.disabled) return false;
  control.click();
  return true;
}

export function keysNote(view, ctx) {
  if (ctx.spectator || !Array.isArray(view.hand)) return null;
  return gettext("1–9: your cards · T, B: put it on the top or the bottom row");
}

export function scores(view) {
  return view.captured_counts;
}

// Read aloud: the two rows' sums, top then bottom (read by themselves when a card changes them).
export function readAloud(view) {
  const top = view.top_sum;
  const bottom = view.bottom_sum;
  if (!Number.isInteger(top) || !Number.isInteger(bottom)) return null;
  const cards = `${(view.top || []).length}-${(view.bottom || []).length}`;
  return { key: `sums-${top}-${bottom}-${cards}`, text: `${top}, ${bottom}` };
}

export function describe(event, ctx) {
  const name = event.seat !== undefined && event.seat !== null ? ctx.seatName(event.seat) : "";
  switch (event.type) {
    case "card_played":
      return say(
        event.row === "top"
          ? gettext("%(name)s put %(card)s on the top row: top %(top)s, bottom %(bottom)s.")
          : gettext("%(name)s put %(card)s on the bottom row: top %(top)s, bottom %(bottom)s."),
        { name, card: tableCardName(event.card), top: event.top_sum, bottom: event.bottom_sum },
      );
    case "capture":
      return say(
        ngettext(
          "Equal rows! %(name)s takes %(count)s card.",
          "Equal rows! %(name)s takes %(count)s cards.",
          event.cards,
        ),
        { name, count: event.cards },
      );
    case "opening_joker_to_bottom":
      return gettext("A joker turned up and went under the deck.");
    case "opening_card":
      return say(
        event.row === "top"
          ? gettext("New card on the top row: %(card)s.")
          : gettext("New card on the bottom row: %(card)s."),
        { card: tableCardName(event.card) },
      );
    case "drew":
      return say(gettext("%(name)s drew new cards (%(count)s)."), { name, count: event.count });
    case "deck_empty":
      return gettext("The deck is empty: play the cards you hold.");
    case "turn":
      return event.again
        ? say(gettext("%(name)s plays again."), { name })
        : say(gettext("It is %(name)s's turn."), { name });
    case "game_over":
      return gettext("All the cards are played.");
    default:
      return null;
  }
}
