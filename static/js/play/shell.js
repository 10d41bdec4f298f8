// The play page shell: one socket, one renderer per game, the parts every game shares (whose turn,
// countdown, scores, what just happened, errors, the result). Importing it does nothing:
// startPlay(root, {config}) starts a play page (main.js, the page's entry, calls it).
//
// Renderer API: static/js/play/games/<game>.js, loaded with a dynamic import.
//   export function render(root, view, ctx)   // required: re-render the game area from the view.
//       Give every control a stable data-key attribute: after render the shell puts the focus back
//       on the element with the data-key that had it (call ctx.restoreFocus() after your own DOM
//       changes outside render).
//   export function describe(event, ctx)      // required: a translated sentence or null
//   export function scores(view, ctx)         // optional: [number per seat] for the score table
//                                             //   (default: view.scores, else view.totals)
//   export function errorMessage(code, ctx)   // optional: a child-friendly text for a game's code
//   export function result(view, ctx)         // optional: the sentence announcing the end
//   export function scoreHeading(view, ctx)   // optional: the score column's heading ("Points")
//   export function readAloud(view, ctx)      // optional: {key, text} the card/target to read
//       aloud now ("+12, −3": numbers and operators, see read-aloud.js); a new key is a new card,
//       read by itself when the child wants new cards read. Numbered controls carry data-read
//       (numbers.js readAs), which the R key reads for the focused one.
// ctx = {seat, spectator, seats: [{seat, name, bot}], dots (draw numbers up to 20 as ten-frames
//        too, numbers.js withDots), send(move) -> Promise<{ok, code?, message?}>, pending (a move
//        awaits its answer), seatName(i), isMe(i), now() (server ms),
//        ui: {} (renderer-owned, survives re-renders), rerender(), restoreFocus()}
// Renderers import gettext/ngettext from ../i18n.js, h from ../dom.js and what they all write the
// same way (say, who, isMyTurn, sendThenRerender) from ../table.js; texts are written as
// gettext("literal") so that makemessages finds them.
// Each group of choices (a hand, a row of targets or operations, a row of actions, a board) is
// marked data-roving="<a name that stays>": it is one Tab stop, with the arrows inside it, for
// every game alike (roving.js); the shell keeps it so after every drawing.
import { h } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { LiveSocket } from "../live-socket.js";
import { ltr, western } from "../numerals.js";
import { Sounds } from "./sound.js";
import { readAloudControls } from "./read-aloud.js";
import { followTheTeacher } from "./follow.js";
import * as roving from "./roving.js";

const MOVE_TIMEOUT_MS = 10_000;
// "try_again" (the server's database or Redis is out for a moment, accounts/sockets.py): the
// same move is sent again after these waits, with the same client_id, which the server answers
// without applying it twice (games/services/writes.py). Only then is the child told.
const RESEND_AFTER_MS = [1_000, 2_000];
const LOG_LENGTH = 40;

function newClientId() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

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

const SCORED_SHOWN_MS = 4000;

// Everything one play page holds: its config, its elements, its state (shell: what tests and the
// console read as playShell.shell), the renderers' ctx, its sounds, its reader and its socket.
function newPlay(root, config) {
  const $ = (id) => root.querySelector(`#${id}`);
  const play = {
    config,
    root,
    $,
    board: $("play-board"),
    sounds: new Sounds({ role: config.seat === null ? "watch" : "play", defaultOn: config.seat !== null }),
    readAloud: null,
    socket: null,
    shell: {
      renderer: null,
      view: null,
      version: -1,
      clockOffset: 0,
      pending: null, // {clientId, move, resolve, timer, resent}
      countdownTimer: null,
      logVersion: -1, // the page came with the log up to this version (a reload keeps its log)
      stopped: false, // the teacher stopped the match: it reads as ended, though nobody won
      paused: false, // the teacher paused the game: the match's clock stands at frozenAt
      frozenAt: 0,
      seenCards: null, // the cards on the table at the last drawing (new ones are dealt in)
      lastScores: null,
      scoredTimer: null,
    },
  };
  play.ctx = newCtx(play);
  return play;
}

// Over, by its own rules or because the teacher stopped it: nothing on the table may be played.
function ended(play) {
  const { shell } = play;
  return Boolean(shell.stopped || (shell.view && shell.view.outcome));
}

function newCtx(play) {
  const { config, shell } = play;
  const ctx = {
    seat: config.seat,
    spectator: config.seat === null,
    // The signed-in child's own accommodation (games/views.py): numbers also as dots.
    dots: Boolean(config.dots),
    seats: config.seats,
    ui: {},
    get pending() {
      return shell.pending !== null;
    },
    seatName(index) {
      const seat = config.seats.find((s) => s.seat === index);
      return seat ? seat.name : interpolate(gettext("Seat %(number)s"), { number: index + 1 }, true);
    },
    isMe(index) {
      return config.seat !== null && index === config.seat;
    },
    now() {
      return shell.paused ? shell.frozenAt : Date.now() + shell.clockOffset;
    },
    send(move) {
      return sendMove(play, move);
    },
    rerender() {
      if (shell.view) renderBoard(play);
    },
    restoreFocus() {
      roving.settle(play.board);
      if (ctx._hadFocus) restoreFocus(play.board, ctx._focusKey, ctx._keysBefore, ctx._focusGroup);
    },
  };
  return ctx;
}

// --- moves -----------------------------------------------------------------------------------

function sendMove(play, move) {
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
function resendLater(play, pending) {
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

function settle(play, answer) {
  const pending = play.shell.pending;
  if (!pending) return;
  clearTimeout(pending.timer);
  play.shell.pending = null;
  setBusy(play, false);
  if (!answer.ok) showError(play, answer.code, answer.message);
  pending.resolve(answer);
}

function setBusy({ board }, busy) {
  board.setAttribute("aria-busy", busy ? "true" : "false");
  board.classList.toggle("is-pending", busy);
}

// --- messages from the server ----------------------------------------------------------------

function onMessage(play, message) {
  if (message.type === "state") onState(play, message);
  else if (message.type === "clock") onClock(play, message);
  else if (message.type === "error") onError(play, message);
}

function setClock({ shell }, message) {
  if (typeof message.server_time !== "number") return;
  shell.paused = Boolean(message.paused);
  shell.frozenAt = message.server_time;
  shell.clockOffset = message.server_time - Date.now();
}

// The teacher paused, resumed or added time: the board and the countdown follow.
function onClock(play, message) {
  const { shell } = play;
  const was = shell.paused;
  setClock(play, message);
  if (!shell.view) return;
  renderBoard(play);
  renderChrome(play);
  if (was !== shell.paused) {
    announce(play, [shell.paused ? gettext("The teacher paused the game.") : gettext("The game goes on!")]);
  }
}

function onState(play, message) {
  const { shell } = play;
  setClock(play, message);
  if (message.version < shell.version) return; // older than what is shown already
  const gap = shell.version >= 0 && message.version > shell.version + 1;
  shell.version = message.version;
  shell.stopped = Boolean(message.stopped);
  shell.view = message.view;
  // Described first: a renderer may keep what an event says for the board (a wrong claim's why).
  // Events the page's own log already holds (it came with the page) are not told twice.
  const sentences = message.version > shell.logVersion ? describeEvents(play, message.events || []) : [];
  if (rightAnswerOfMine(play, message.events || [])) play.sounds.play("right");
  renderBoard(play);
  const ending = renderChrome(play);
  if (ending) sentences.push(ending);
  logSentences(play, sentences);
  if (shell.pending && message.client_id === shell.pending.clientId) settle(play, { ok: true });
  // The full view came with it, so the page is right; sync brings the server's word anyway, in
  // case several changes were lost on the way (the channel layer delivers at most once).
  if (gap) play.socket.send({ type: "sync" });
}

function onError(play, message) {
  const { shell } = play;
  // The state that follows says it, once, on the page itself (renderResult).
  if (message.code === "match_stopped" && !shell.pending) return;
  if (shell.pending && (!message.client_id || message.client_id === shell.pending.clientId)) {
    if (message.code === "try_again" && resendLater(play, shell.pending)) return;
    settle(play, { ok: false, code: message.code, message: message.message });
    return;
  }
  showError(play, message.code, message.message);
}

function onOpen(play) {
  const { shell } = play;
  // A new connection sends the whole state first: no version gap to worry about.
  shell.version = -1;
  if (shell.pending) {
    // Same client_id: the server answers it without applying it twice if it got there before.
    play.socket.send({ type: "move", move: shell.pending.move, client_id: shell.pending.clientId });
  }
}

const STATUS_TEXT = {
  connecting: () => gettext("Connecting…"),
  connected: () => "",
  reconnecting: () => gettext("Reconnecting…"),
  closed: () => gettext("You cannot join this game."),
  signed_out: () => gettext("You are signed out."),
};

function onStatus(play, status) {
  document.body.dataset.connection = status;
  const line = play.$("play-status");
  line.textContent = STATUS_TEXT[status]();
  if (status === "signed_out" || status === "closed") {
    const link = document.createElement("a");
    link.href = "/";
    link.textContent = gettext("Sign in again");
    line.append(" ", link);
  }
}

// --- rendering -------------------------------------------------------------------------------

function focusedKey(board) {
  const active = document.activeElement;
  if (!active || !board.contains(active)) return null;
  const keyed = active.closest("[data-key]");
  return keyed && board.contains(keyed) ? keyed.dataset.key : null;
}

// A control the keyboard can land on: a disabled button cannot take the focus (an aria-disabled
// one can, which is why the renderers prefer it for a control that waits). An item of a group of
// choices is one even when it is not its group's Tab stop now.
function focusable(element) {
  if (!element || element.disabled || element.closest("[hidden]")) return false;
  return element.tabIndex >= 0 || Boolean(element.closest("[data-roving]"));
}

// The keyed controls in page order, to find a vanished control's natural successor.
function keyedControls(board) {
  return [...board.querySelectorAll("[data-key]")].filter(focusable).map((el) => el.dataset.key);
}

// After a re-render, the focus goes back to the control that had it; if that control is gone or
// cannot take the focus now (a card played, a button that waits), to its group's Tab stop (the
// item now at its place), else to the next control that was after it, else the one before it,
// else the first control of the table, else the table itself (its tabindex is -1 for that): never
// the page, which would send a keyboard child back through the header. A control in a group is
// reached through its group's Tab stop, where the child left that group.
function restoreFocus(board, key, keysBefore = [], group = null) {
  const active = document.activeElement;
  const kept = active && board.contains(active) && !active.disabled && !(active === board && key !== null);
  if (kept) return;
  const byKey = new Map(
    [...board.querySelectorAll("[data-key]")].filter(focusable).map((el) => [el.dataset.key, el]),
  );
  if (byKey.has(key)) {
    byKey.get(key).focus({ preventScroll: true });
    return;
  }
  if (group && roving.enter(board, group)) return;
  const at = keysBefore.indexOf(key);
  const candidates = [...keysBefore.slice(at + 1), ...keysBefore.slice(0, Math.max(at, 0)).reverse()];
  const target =
    candidates.map((k) => byKey.get(k)).find(Boolean) ||
    [...board.querySelectorAll("button, input, select, textarea, a[href]")].find(focusable) ||
    board;
  roving.entryFor(target).focus({ preventScroll: true });
}

function renderBoard(play) {
  const { board, ctx, shell } = play;
  const hadFocus = Boolean(document.activeElement && board.contains(document.activeElement));
  const key = focusedKey(board);
  const keysBefore = hadFocus ? keyedControls(board) : [];
  const group = hadFocus ? roving.focusedGroup(board) : null;
  ctx._focusKey = key;
  ctx._hadFocus = hadFocus;
  ctx._keysBefore = keysBefore;
  ctx._focusGroup = group;
  shell.renderer.render(board, shell.view, ctx);
  dealIn(play);
  // The table is drawn: no longer busy (the page starts busy until its first state), unless a
  // move is on its way.
  setBusy(play, shell.pending !== null);
  const over = ended(play);
  board.classList.toggle("is-over", over);
  board.classList.toggle("is-paused", shell.paused && !over);
  // Once the game is over, or while it is paused, nothing on the table may be played (a
  // renderer need not know).
  if (over || shell.paused) {
    for (const control of board.querySelectorAll("button, input, select, textarea")) control.disabled = true;
  }
  roving.settle(board);
  if (!over && hadFocus) restoreFocus(board, key, keysBefore, group);
  renderKeysNote(play);
  if (play.readAloud) play.readAloud.readNewCard();
}

// Cards that were not on the table at the last drawing arrive with a short motion (CSS, only
// where motion is welcome); the page's first drawing deals nothing.
function dealIn({ board, shell }) {
  const cards = [...board.querySelectorAll("[data-card]")];
  if (shell.seenCards) {
    for (const card of cards) if (!shell.seenCards.has(card.dataset.card)) card.classList.add("is-dealt");
  }
  shell.seenCards = new Set(cards.map((card) => card.dataset.card));
}

function rightAnswerOfMine({ config }, events) {
  return events.some((e) => e.type === "attempt" && e.seat === config.seat && e.correct);
}

function seatScores({ shell, ctx }, view) {
  if (shell.renderer.scores) return shell.renderer.scores(view, ctx);
  if (Array.isArray(view.scores)) return view.scores;
  if (Array.isArray(view.totals)) return view.totals;
  if (view.outcome) return view.outcome.scores;
  return null;
}

function renderChrome(play) {
  const { shell } = play;
  const view = shell.view;
  play.$("play-paused").hidden = !shell.paused || ended(play);
  renderTurn(play, view);
  renderScores(play, view);
  tickCountdown(play);
  return renderResult(play, view);
}

function renderTurn(play, view) {
  const { config, ctx } = play;
  const turn = play.$("play-turn");
  const active = view.active || [];
  turn.classList.toggle("is-my-turn", !ended(play) && active.includes(config.seat));
  if (play.shell.stopped && !view.outcome) turn.textContent = gettext("The teacher stopped this game.");
  else if (view.outcome) turn.textContent = gettext("The game is over.");
  else if (active.includes(config.seat)) turn.textContent = gettext("Your turn!");
  else if (active.length === 0) turn.textContent = gettext("Waiting…");
  else {
    const names = active.map((i) => ctx.seatName(i)).join(", ");
    turn.textContent = interpolate(gettext("Waiting for %(names)s"), { names }, true);
  }
}

// Who just scored is shown on the table's bar (on a phone the score table is below the board)
// and in the score table, for a few seconds.
function showWhoScored(play, scores) {
  const { config, ctx, shell } = play;
  const before = shell.lastScores;
  shell.lastScores = [...scores];
  if (!before) return new Set();
  const gained = config.seats
    .map((seat) => ({ seat, gain: (scores[seat.seat] ?? 0) - (before[seat.seat] ?? 0) }))
    .filter(({ gain }) => gain > 0);
  if (gained.length === 0) return new Set();
  const line = play.$("play-scored");
  line.replaceChildren(
    ...gained.map(({ seat, gain }) =>
      h(
        "span",
        { class: `scored-chip${ctx.isMe(seat.seat) ? " is-me" : ""}` },
        interpolate(
          gettext("%(name)s %(points)s"),
          { name: ctx.isMe(seat.seat) ? gettext("You") : seat.name, points: ltr(`+${gain}`) },
          true,
        ),
      ),
    ),
  );
  line.hidden = false;
  clearTimeout(shell.scoredTimer);
  shell.scoredTimer = setTimeout(() => {
    line.hidden = true;
    for (const row of play.root.querySelectorAll(".score-table tr.just-scored")) row.classList.remove("just-scored");
  }, SCORED_SHOWN_MS);
  return new Set(gained.map(({ seat }) => seat.seat));
}

function hideWhoScored(play, scores) {
  const { shell, $ } = play;
  shell.lastScores = [...scores];
  clearTimeout(shell.scoredTimer);
  $("play-scored").hidden = true;
  $("play-scored").replaceChildren();
  return new Set();
}

function renderScores(play, view) {
  const { config, ctx, shell } = play;
  const scores = seatScores(play, view) || [];
  // Once the game is over the podium says who scored what: no "+1" chip stays on the bar.
  const scored = view.outcome ? hideWhoScored(play, scores) : showWhoScored(play, scores);
  const active = new Set(view.active || []);
  const rows = config.seats.map((seat) =>
    h(
      "tr",
      {
        class: [
          ctx.isMe(seat.seat) ? "is-me" : "",
          active.has(seat.seat) ? "is-active" : "",
          scored.has(seat.seat) ? "just-scored" : "",
        ].join(" "),
      },
      h(
        "th",
        { scope: "row" },
        seat.name,
        // The space keeps the name and its tag apart for screen readers ("Ana you", not "Anayou").
        seat.bot ? [" ", h("span", { class: "tag" }, gettext("bot"))] : null,
        ctx.isMe(seat.seat) ? [" ", h("span", { class: "tag" }, gettext("you"))] : null,
      ),
      h("td", {}, scores[seat.seat] ?? "–"),
    ),
  );
  play.$("play-scores").replaceChildren(
    h(
      "table",
      { class: "score-table" },
      h("caption", {}, gettext("Scores")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, gettext("Player")),
          h("th", { scope: "col" }, (shell.renderer.scoreHeading && shell.renderer.scoreHeading(view, ctx)) || gettext("Points")),
        ),
      ),
      h("tbody", {}, rows),
    ),
  );
}

function defaultResult({ config, ctx }, view) {
  const winners = view.outcome.winners || [];
  if (winners.length === 0) return gettext("Nobody won this time.");
  if (winners.includes(config.seat)) {
    return winners.length === 1 ? gettext("You won!") : gettext("You share the win!");
  }
  const names = winners.map((i) => ctx.seatName(i)).join(", ");
  return winners.length === 1
    ? interpolate(gettext("%(names)s won!"), { names }, true)
    : interpolate(gettext("It is a tie: %(names)s share the win!"), { names }, true);
}

function ordinal(place) {
  if (place === 1) return gettext("1st");
  if (place === 2) return gettext("2nd");
  if (place === 3) return gettext("3rd");
  return interpolate(gettext("%(place)sth"), { place }, true);
}

// Seats in the order of their places (ties share a place), from the server's outcome.
function standings(config, outcome) {
  const scores = outcome.scores || [];
  const winners = outcome.winners || [];
  const places = outcome.places || scores.map((_, seat) => (winners.includes(seat) ? 1 : 2));
  return config.seats
    .map((seat) => ({ seat, place: places[seat.seat], points: scores[seat.seat] }))
    .sort((a, b) => a.place - b.place || a.seat.seat - b.seat.seat);
}

function podium({ config, ctx }, outcome) {
  return h(
    "ol",
    { class: "podium", "aria-label": gettext("Final places") },
    standings(config, outcome).map(({ seat, place, points }) =>
      h(
        "li",
        {
          class: `podium-row place-${Math.min(place, 4)}${ctx.isMe(seat.seat) ? " is-me" : ""}`,
          dataset: { place: String(place), seat: String(seat.seat) },
        },
        h("span", { class: "podium-rank" }, ordinal(place)),
        " ",
        h("span", { class: "podium-name" }, seat.name),
        " ",
        h(
          "span",
          { class: "podium-points" },
          points === undefined || points === null
            ? "–"
            : interpolate(ngettext("%(points)s point", "%(points)s points", points), { points }, true),
        ),
      ),
    ),
  );
}

function nextLinks(config) {
  const links = config.next || [];
  if (links.length === 0) return null;
  return h(
    "p",
    { class: "result-next" },
    links.map((link, index) => {
      const look = index === 0 ? "button" : "button button-secondary";
      if (!link.post) return h("a", { href: link.url, class: look }, link.label);
      // A step that makes something (the next homework game): a form, with the page's CSRF token.
      const token = document.querySelector("input[name=csrfmiddlewaretoken]");
      return h(
        "form",
        { method: "post", action: link.url, class: "inline-form" },
        h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: token ? token.value : "" }),
        h("button", { type: "submit", class: look }, link.label),
      );
    }),
  );
}

// Returns the closing sentence the first time the result is shown, for the log and the announcer.
function renderResult(play, view) {
  const { config, ctx, shell, board } = play;
  const box = play.$("play-result");
  if (!view.outcome && shell.stopped) return renderStopped(play, box);
  if (!view.outcome) {
    box.hidden = true;
    return null;
  }
  const sentence = (shell.renderer.result && shell.renderer.result(view, ctx)) || defaultResult(play, view);
  const already = box.dataset.shown === "true";
  const heading = h("h2", { tabindex: "-1" }, gettext("Game over"));
  // Only nodes: replaceChildren() would write a missing part (null) as the text "null".
  box.replaceChildren(
    ...[
      heading,
      h("p", { class: "result-sentence" }, sentence),
      config.seats.length > 1 ? podium(play, view.outcome) : null,
      nextLinks(config),
    ].filter(Boolean),
  );
  box.hidden = false;
  if (already) return null;
  box.dataset.shown = "true";
  celebrate(play, box, view.outcome);
  // The control that had the focus is disabled now: the keyboard goes on from the result.
  if (!document.activeElement || document.activeElement === document.body || board.contains(document.activeElement)) {
    heading.focus({ preventScroll: true });
  }
  return sentence;
}

// The teacher stopped the match before its end: said where the result would be, with the way on.
function renderStopped({ config, board }, box) {
  const already = box.dataset.shown === "true";
  const heading = h("h2", { tabindex: "-1" }, gettext("The teacher stopped this game."));
  box.replaceChildren(heading, nextLinks(config));
  box.hidden = false;
  box.dataset.stopped = "true";
  if (already) return null;
  box.dataset.shown = "true";
  if (!document.activeElement || document.activeElement === document.body || board.contains(document.activeElement)) {
    heading.focus({ preventScroll: true });
  }
  return gettext("The teacher stopped this game.");
}

function celebrate({ config, sounds }, box, outcome) {
  const winners = outcome.winners || [];
  const won = config.seat !== null ? winners.includes(config.seat) : winners.length > 0;
  if (!won) return;
  // The motion itself is CSS, inside prefers-reduced-motion: no-preference.
  box.classList.add("is-celebrating");
  sounds.play("win");
}

function renderSoundToggle({ $, sounds }) {
  const button = $("play-sound");
  if (!button) return;
  const paint = () => {
    button.setAttribute("aria-pressed", String(sounds.on));
    button.textContent = sounds.on ? gettext("Sound: on") : gettext("Sound: off");
  };
  paint();
  button.hidden = false;
  button.addEventListener("click", () => {
    sounds.toggle();
    paint();
  });
}

function tickCountdown(play) {
  const { shell } = play;
  const element = play.$("play-countdown");
  const deadline = shell.view && !ended(play) ? shell.view.deadline : null;
  element.classList.toggle("is-paused", shell.paused);
  clearTimeout(shell.countdownTimer);
  if (typeof deadline !== "number") {
    element.hidden = true;
    element.textContent = "";
    return;
  }
  const seconds = Math.max(0, Math.ceil((deadline - play.ctx.now()) / 1000));
  element.hidden = false;
  element.textContent = interpolate(
    ngettext("%(seconds)s second left", "%(seconds)s seconds left", seconds),
    { seconds },
    true,
  );
  element.classList.toggle("is-urgent", seconds <= 5 && !shell.paused);
  if (seconds > 0 && !shell.paused) shell.countdownTimer = setTimeout(() => tickCountdown(play), 250);
}

// --- keys ------------------------------------------------------------------------------------
// A renderer's keyShortcut(event, view, ctx) answers single keys (digits, letters) for its main
// actions. They work only while the focus is in the game table (WCAG 2.1.4: elsewhere, and in a
// screen reader's browse mode, letters keep their usual meaning), never while typing in a field,
// never with Ctrl, Alt or Meta held. The page lists them in one short note, and nowhere else.
function onBoardKey(play, event) {
  const { ctx, shell, readAloud } = play;
  const renderer = shell.renderer;
  if (!renderer || !shell.view) return;
  if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing || event.defaultPrevented) return;
  if (event.target.closest("input, textarea, select, [contenteditable]")) return;
  if (readAloud && readAloud.onKey(event)) return;
  if (!renderer.keyShortcut || ctx.spectator) return;
  if (ended(play) || shell.paused) return;
  if (renderer.keyShortcut(shortcutKey(event), shell.view, ctx)) event.preventDefault();
}

// The key a shortcut reads, whatever the keyboard's layout: an Eastern Arabic digit is its Western
// one (٣ is 3), and a letter of another script is the Latin letter of its key (an Arabic keyboard's
// ش is on the A key): the shortcuts the page lists work on an Arabic keyboard too.
function shortcutKey(event) {
  let key = western(event.key);
  const letter = /^Key([A-Z])$/.exec(event.code || "");
  if (letter && key.length === 1 && !/^[\x20-\x7e]$/.test(key)) key = letter[1].toLowerCase();
  return { key, shiftKey: event.shiftKey };
}

function renderKeysNote(play) {
  const { ctx, shell, readAloud } = play;
  const note = play.$("play-keys");
  const renderer = shell.renderer;
  const gameKeys = !ctx.spectator && !ended(play) && renderer.keysNote ? renderer.keysNote(shell.view, ctx) : null;
  // A range of keys ("1–9") is held left to right: in an Arabic sentence it read "9–1".
  const keys = [gameKeys, readAloud ? readAloud.keysNote() : null]
    .filter(Boolean)
    .join(" · ")
    .replace(/[0-9٠-٩]+–[0-9٠-٩]+/g, (range) => ltr(range));
  const text = keys ? interpolate(gettext("Keys, while the focus is on the game table: %(keys)s"), { keys }, true) : "";
  if (note.textContent !== text) note.textContent = text;
  note.hidden = !text;
}

// --- what just happened ----------------------------------------------------------------------

function describeEvents({ shell, ctx }, events) {
  const sentences = [];
  for (const event of events) {
    let sentence = null;
    try {
      sentence = shell.renderer.describe(event, ctx);
    } catch (error) {
      console.error("describe failed", event, error);
    }
    if (sentence) sentences.push(sentence);
  }
  return sentences;
}

function logSentences(play, sentences, { quietly = false } = {}) {
  if (sentences.length === 0) return;
  const log = play.$("play-log");
  for (const sentence of sentences) log.prepend(h("li", {}, sentence));
  while (log.children.length > LOG_LENGTH) log.lastElementChild.remove();
  if (!quietly) announce(play, sentences);
}

// A reloaded page rebuilds its log from the stored moves the server filtered for this seat
// (games.selectors.match_log), without reading them all out again.
function restoreLog(play) {
  const stored = play.config.log || { version: -1, events: [] };
  play.shell.logVersion = stored.version;
  logSentences(play, describeEvents(play, stored.events), { quietly: true });
}

function announce(play, sentences) {
  const live = play.$("play-announcer");
  // Emptying then filling on the next frame makes screen readers read a repeated sentence again.
  live.textContent = "";
  requestAnimationFrame(() => {
    live.textContent = sentences.join(" ");
  });
}

// --- numbers read aloud ---------------------------------------------------------------------
// What the Read aloud button reads now: the renderer's readAloud(), while the game is on.
function currentReading(play) {
  const { ctx, shell } = play;
  const renderer = shell.renderer;
  if (!renderer || !renderer.readAloud || !shell.view || ended(play)) return null;
  try {
    return renderer.readAloud(shell.view, ctx);
  } catch (error) {
    console.error("readAloud failed", error);
    return null;
  }
}

// --- errors ----------------------------------------------------------------------------------

function showError(play, code, serverMessage) {
  const { ctx, shell } = play;
  if (code === "busy") return;
  const fromRenderer = shell.renderer && shell.renderer.errorMessage
    ? shell.renderer.errorMessage(code, ctx)
    : null;
  const text = fromRenderer || sharedErrorMessage(code) || serverMessage || gettext("Something went wrong.");
  const region = play.$("play-errors");
  region.replaceChildren(h("p", { dataset: { code } }, text));
}

function clearError(play) {
  const region = play.$("play-errors");
  region.replaceChildren();
}

// --- start -----------------------------------------------------------------------------------

// Starts the play page whose parts are inside root (templates/games/play.html): its renderer is
// loaded, its log restored and its socket opened (openSocket(path, handlers), a LiveSocket unless
// told otherwise). Returns what tests and the console look at (main.js names it playShell), or
// null when the game's renderer cannot be loaded.
export async function startPlay(root, { config, openSocket = (path, handlers) => new LiveSocket(path, handlers) }) {
  const play = newPlay(root, config);
  const { $, board, ctx, shell, sounds } = play;
  play.socket = openSocket(config.socket_path, {
    onMessage: (message) => onMessage(play, message),
    onStatus: (status) => onStatus(play, status),
    onOpen: () => onOpen(play),
  });
  // Only for a child whose teacher turned it on (config.read_aloud: the clips of the page's
  // language); the controls are read-aloud.js's. What is read is the renderer's readAloud().
  if (config.read_aloud) {
    play.readAloud = readAloudControls(config.read_aloud, { board, reading: () => currentReading(play) });
  }
  try {
    shell.renderer = await import(`./games/${config.game}.js`);
  } catch (error) {
    console.error(error);
    $("play-status").textContent = gettext("This game cannot be shown. Reload the page.");
    return null;
  }
  renderSoundToggle(play);
  if (play.readAloud) play.readAloud.start();
  roving.keepOneTabStopPerGroup(board);
  board.addEventListener("keydown", (event) => onBoardKey(play, event));
  restoreLog(play);
  play.socket.connect();
  // A lesson's table: the page goes by itself where the teacher sends the child next.
  const following = config.follow ? followTheTeacher(config.follow, config.match_id) : null;
  return { ctx, shell, socket: play.socket, following, sounds, reader: play.readAloud && play.readAloud.reader };
}
