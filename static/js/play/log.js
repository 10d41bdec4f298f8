// What just happened (#play-log), newest first, each sentence also said to screen readers
// (#play-announcer).
import { h } from "./dom.js";

const LOG_LENGTH = 40;

export function describeEvents({ shell, ctx }, events) {
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

export function logSentences(play, sentences, { quietly = false } = {}) {
  if (sentences.length === 0) return;
  const log = play.$("play-log");
  for (const sentence of sentences) log.prepend(h("li", {}, sentence));
  while (log.children.length > LOG_LENGTH) log.lastElementChild.remove();
  if (!quietly) announce(play, sentences);
}

// A reloaded page rebuilds its log from the stored moves the server filtered for this seat
// (games.selectors.match_log), without reading them all out again.
export function restoreLog(play) {
  const stored = play.config.log || { version: -1, events: [] };
  play.shell.logVersion = stored.version;
  logSentences(play, describeEvents(play, stored.events), { quietly: true });
}

export function announce(play, sentences) {
  const live = play.$("play-announcer");
  // Emptying then filling on the next frame makes screen readers read a repeated sentence again.
  live.textContent = "";
  requestAnimationFrame(() => {
    live.textContent = sentences.join(" ");
  });
}
