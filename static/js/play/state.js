// One play page's state: its config, its elements, what it shows (shell: what tests and the
// console read as playShell.shell), its sounds, its reader and its socket. Every part of the page
// (shell.js, moves.js, scoreboard.js, result.js, keys.js, log.js, errors.js) takes it as `play`.
import { Sounds } from "./sound.js";

export function newPlay(root, config) {
  const $ = (id) => root.querySelector(`#${id}`);
  return {
    config,
    root,
    $,
    board: $("play-board"),
    sounds: new Sounds({ role: config.seat === null ? "watch" : "play", defaultOn: config.seat !== null }),
    ctx: null, // the renderers' (shell.js newCtx)
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
}

// Over, by its own rules or because the teacher stopped it: nothing on the table may be played.
export function ended(play) {
  const { shell } = play;
  return Boolean(shell.stopped || (shell.view && shell.view.outcome));
}
