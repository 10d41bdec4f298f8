// A renderer's keyShortcut(event, view, ctx) answers single keys (digits, letters) for its main
// actions. They work only while the focus is in the game table (WCAG 2.1.4: elsewhere, and in a
// screen reader's browse mode, letters keep their usual meaning), never while typing in a field,
// never with Ctrl, Alt or Meta held. The page lists them in one short note, and nowhere else.
import { gettext, interpolate } from "./i18n.js";
import { ltr, western } from "../numerals.js";
import { ended } from "./state.js";

export function onBoardKey(play, event) {
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

export function renderKeysNote(play) {
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
