// The bar above the table and the score table beside it: whose turn, the countdown, who just
// scored, and the scores.
import { h } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { ltr } from "../numerals.js";
import { ended } from "./state.js";

const SCORED_SHOWN_MS = 4000;

function seatScores({ shell, ctx }, view) {
  if (shell.renderer.scores) return shell.renderer.scores(view, ctx);
  if (Array.isArray(view.scores)) return view.scores;
  if (Array.isArray(view.totals)) return view.totals;
  if (view.outcome) return view.outcome.scores;
  return null;
}

export function renderTurn(play, view) {
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

export function renderScores(play, view) {
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

export function tickCountdown(play) {
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
