// What every renderer (static/js/play/games/<game>.js) writes the same way: a sentence with its
// numbers and names put in, a seat named for the child reading it, whether the child may act now,
// and a move sent then the table drawn again once the server took it.
import { gettext, interpolate } from "./i18n.js";

// gettext's text with its %(name)s filled in: say(gettext("%(name)s won"), {name}).
export const say = (text, values) => interpolate(text, values, true);

// "You" for the child's own seat, else the seat's name.
export function who(seat, ctx) {
  return ctx.isMe(seat) ? gettext("You") : ctx.seatName(seat);
}

// The child plays, the game is on, it is their turn and the engine lists them as active.
export function isMyTurn(view, ctx) {
  return !ctx.spectator && !view.outcome && view.turn === ctx.seat && (view.active || []).includes(ctx.seat);
}

// Sends the move; once the server has taken it, `after` clears the renderer's choices (ctx.ui)
// and the table is drawn again. A refused move leaves the choices as they were. Returns the
// server's answer.
export async function sendThenRerender(ctx, move, after = () => {}) {
  const answer = await ctx.send(move);
  if (answer && answer.ok) {
    after();
    ctx.rerender();
  }
  return answer;
}
