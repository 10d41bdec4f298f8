// The end of the game (#play-result): the sentence, the podium and the way on; or, when the
// teacher stopped the match, that, with the way on.
import { h } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

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
export function renderResult(play, view) {
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
