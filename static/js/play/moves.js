// A move's way to the server and back: sent with a client_id, answered by the state that names it
// or by an error; resent on "try_again" and on a new connection with the same client_id; given up
// after MOVE_TIMEOUT_MS. The table is busy (aria-busy) while a move is on its way.
import { clearError, showError } from "./errors.js";

const MOVE_TIMEOUT_MS = 10_000;
// "try_again" (the server's database or Redis is out for a moment, realtime/sockets.py): the
// same move is sent again after these waits, with the same client_id, which the server answers
// without applying it twice (games/services/writes.py). Only then is the child told.
const RESEND_AFTER_MS = [1_000, 2_000];

function newClientId() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

export function sendMove(play, move) {
  const { shell } = play;
  if (play.ctx.spectator) return Promise.resolve({ ok: false, code: "spectator" });
  // A second tap while the first is on its way is dropped: the child sees the first answer.
  if (shell.pending) return Promise.resolve({ ok: false, code: "busy" });
  return new Promise((resolve) => {
    const clientId = newClientId();
    shell.pending = { clientId, move, resolve, timer: null, resent: 0 };
    startMoveTimeout(play, shell.pending);
    setBusy(play, true);
    clearError(play);
    // While the socket is down the move waits; it is sent on reconnection with the same client_id.
    play.socket.send({ type: "move", move, client_id: clientId });
  });
}

function startMoveTimeout(play, pending) {
  clearTimeout(pending.timer);
  pending.timer = setTimeout(() => settle(play, { ok: false, code: "timeout" }), MOVE_TIMEOUT_MS);
}

// The server could not take the move just now: send it again, a little later, while resends
// remain. Returns whether it will be.
export function resendLater(play, pending) {
  if (pending.resent >= RESEND_AFTER_MS.length) return false;
  const wait = RESEND_AFTER_MS[pending.resent];
  pending.resent += 1;
  clearTimeout(pending.timer);
  pending.timer = setTimeout(() => {
    if (play.shell.pending !== pending) return;
    startMoveTimeout(play, pending);
    play.socket.send({ type: "move", move: pending.move, client_id: pending.clientId });
  }, wait);
  return true;
}

// A new connection: the move on its way, if any, goes again with the same client_id, which the
// server answers without applying it twice if it got there before.
export function sendPendingAgain(play) {
  const { pending } = play.shell;
  if (pending) play.socket.send({ type: "move", move: pending.move, client_id: pending.clientId });
}

export function settle(play, answer) {
  const pending = play.shell.pending;
  if (!pending) return;
  clearTimeout(pending.timer);
  play.shell.pending = null;
  setBusy(play, false);
  if (!answer.ok) showError(play, answer.code, answer.message);
  pending.resolve(answer);
}

export function setBusy({ board }, busy) {
  board.setAttribute("aria-busy", busy ? "true" : "false");
  board.classList.toggle("is-pending", busy);
}
