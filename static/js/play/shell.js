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
// The words for the codes a move is refused with, every game's, are errors.js's, not a renderer's.
//
// The shell's parts, each given the page's state (state.js) as `play`: moves.js (a move's way to
// the server and back), focus.js (the focus after a drawing), scoreboard.js (whose turn, the
// countdown, the scores), result.js (the end), keys.js (shortcut keys), log.js (what just
// happened) and errors.js (a refusal in the child's words).
import { gettext, interpolate } from "./i18n.js";
import { LiveSocket } from "../live-socket.js";
import { readAloudControls } from "./read-aloud.js";
import { followTheTeacher } from "./follow.js";
import * as roving from "./roving.js";
import { ended, newPlay } from "./state.js";
import { resendLater, sendMove, sendPendingAgain, setBusy, settle } from "./moves.js";
import { showError } from "./errors.js";
import { focusedKey, keyedControls, restoreFocus } from "./focus.js";
import { renderScores, renderTurn, tickCountdown } from "./scoreboard.js";
import { renderResult } from "./result.js";
import { onBoardKey, renderKeysNote } from "./keys.js";
import { announce, describeEvents, logSentences, restoreLog } from "./log.js";

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
  sendPendingAgain(play);
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

function renderChrome(play) {
  const { shell } = play;
  const view = shell.view;
  play.$("play-paused").hidden = !shell.paused || ended(play);
  renderTurn(play, view);
  renderScores(play, view);
  tickCountdown(play);
  return renderResult(play, view);
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

// Starts the play page whose parts are inside root (templates/games/play.html): its renderer is
// loaded, its log restored and its socket opened (openSocket(path, handlers), a LiveSocket unless
// told otherwise). Returns what tests and the console look at (main.js names it playShell), or
// null when the game's renderer cannot be loaded.
export async function startPlay(root, { config, openSocket = (path, handlers) => new LiveSocket(path, handlers) }) {
  const play = newPlay(root, config);
  play.ctx = newCtx(play);
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

