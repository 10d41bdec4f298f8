// A refused move, or a lost one, in the child's words on the page (#play-errors): the words of
// every code live here, and only here. The engine's messages are English, for developers; a code
// is worded below for a child, through the djangojs catalogue. A game's own codes are its words
// function's (named for the game's slug in GAME_WORDS), asked first: a game may say a shared code
// its own way (¡Mía!'s not_active). Else the codes every game shares; else the server's message.
import { h } from "./dom.js";
import { gettext } from "./i18n.js";

// Codes of the socket, of live play and of the engine's shared rules (engine/core.py).
function sharedWords(code) {
  switch (code) {
    case "not_active":
      return gettext("Wait a moment: you cannot play right now.");
    case "game_over":
      return gettext("This game is over.");
    case "flood":
      return gettext("Slow down a little!");
    case "spectator":
      return gettext("You are watching this game, so you cannot play in it.");
    case "not_seated":
      return gettext("You do not have a seat at this game.");
    case "match_stopped":
      return gettext("The teacher stopped this game.");
    case "paused":
      return gettext("The game is paused. Wait for your teacher.");
    case "timeout":
      return gettext("The game did not answer. Try again.");
    case "disconnected":
      return gettext("The connection was lost. Try again.");
    case "try_again":
      return gettext("The game is busy for a moment. Try again in a little while.");
    case "malformed":
    case "unknown_move":
    case "unknown_field":
    case "bad_seat":
      return gettext("That move does not work here.");
    default:
      return null;
  }
}

// Add or Multiply? (docs/rules/add_or_multiply.md)
function addOrMultiplyWords(code) {
  switch (code) {
    case "students_score_off":
      return gettext("In this game the points are counted for you.");
    case "number_not_held":
      return gettext("You do not have that number card any more.");
    case "operation_not_held":
      return gettext("You have no operation card of that kind left.");
    case "wrong_phase":
      return gettext("Not now: first everyone chooses, then everyone types their score.");
    case "bad_recipients":
      return gettext("Give one number to each of the other two players.");
    case "not_active":
      return gettext("You have already played this round. Wait for the others.");
    default:
      return null;
  }
}

// Add Up! (docs/rules/add_up.md)
function addUpWords(code) {
  switch (code) {
    case "card_not_in_hand":
      return gettext("That card is not in your hand any more.");
    case "bad_row":
      return gettext("Choose the top or the bottom row.");
    case "missing_joker_value":
      return gettext("Say how much your joker is worth first.");
    case "joker_value_out_of_range":
      return gettext("A white joker is worth 0 to 5, a yellow joker 10 to 99.");
    case "not_a_joker":
      return gettext("Only a joker can change its value.");
    default:
      return null;
  }
}

// Mathable Junior (docs/rules/mathable_junior.md)
function mathableJuniorWords(code) {
  switch (code) {
    case "tile_not_in_rack":
      return gettext("That tile is not in your rack any more.");
    case "square_occupied":
      return gettext("That square already has a tile.");
    case "wrong_number":
      return gettext("Put each tile on a square printed with its own number.");
    case "exchange_after_place":
      return gettext("You can only exchange tiles before you place one.");
    case "pot_too_small":
      return gettext("The pot does not have that many tiles.");
    case "no_extra_draw":
      return gettext("You have no extra tile to draw.");
    case "pot_empty":
      return gettext("The pot is empty.");
    default:
      return null;
  }
}

// ¡Mía!, at the table and in the solo square (docs/rules/mia.md, mia_solo.md)
function miaWords(code) {
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

// SUM (docs/rules/sum.md)
function sumWords(code) {
  switch (code) {
    case "card_not_in_hand":
      return gettext("That card is not in your hand any more.");
    case "not_an_expression":
      return gettext("Those cards do not make an equation: put an operation card between numbers.");
    case "duplicate_card":
      return gettext("A card can be used only once in an equation.");
    case "wild_in_equation":
      return gettext("Wild cards cannot be part of an equation.");
    case "wrong_limit_reached":
      return gettext("No more tries this turn: draw a card or end your turn.");
    case "draw_limit_reached":
      return gettext("You have already drawn 2 cards this turn.");
    case "empty_deck":
      return gettext("That deck is empty.");
    case "must_draw":
      return gettext("Draw 2 cards before you end your turn.");
    case "not_a_wild":
      return gettext("That card is not a wild card.");
    case "wild_drawn_this_turn":
      return gettext("You drew this wild card this turn: play it on a later turn.");
    case "needs_another_card":
      return gettext("You need another card in your hand to play this wild card.");
    case "bad_target":
      return gettext("Choose another card of your hand to give back.");
    case "rotation_pending":
      return gettext("First everyone chooses a card to pass.");
    case "no_rotation":
      return gettext("Nobody is passing cards now.");
    default:
      return null;
  }
}

const GAME_WORDS = {
  add_or_multiply: addOrMultiplyWords,
  add_up: addUpWords,
  mathable_junior: mathableJuniorWords,
  mia: miaWords,
  sum: sumWords,
};

// The child's words for a code of the game, or null when nobody words it.
export function errorWords(code, game) {
  const ownWords = GAME_WORDS[game];
  return (ownWords && ownWords(code)) || sharedWords(code);
}

export function showError(play, code, serverMessage) {
  if (code === "busy") return;
  const text = errorWords(code, play.config.game) || serverMessage || gettext("Something went wrong.");
  const region = play.$("play-errors");
  region.replaceChildren(h("p", { dataset: { code } }, text));
}

export function clearError(play) {
  const region = play.$("play-errors");
  region.replaceChildren();
}
