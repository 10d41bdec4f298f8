// A refused move, or a lost one, in the child's words on the page (#play-errors).
import { h } from "./dom.js";
import { gettext } from "./i18n.js";

// Codes of the socket, of live play and of the engine's shared rules (engine/core.py); each game's
// own codes are its renderer's errorMessage(), asked first. Else the server's message is shown.
function sharedErrorMessage(code) {
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

export function showError(play, code, serverMessage) {
  const { ctx, shell } = play;
  if (code === "busy") return;
  const fromRenderer = shell.renderer && shell.renderer.errorMessage
    ? shell.renderer.errorMessage(code, ctx)
    : null;
  const text = fromRenderer || sharedErrorMessage(code) || serverMessage || gettext("Something went wrong.");
  const region = play.$("play-errors");
  region.replaceChildren(h("p", { dataset: { code } }, text));
}

export function clearError(play) {
  const region = play.$("play-errors");
  region.replaceChildren();
}
