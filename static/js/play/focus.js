// Where the keyboard's focus goes after the table is drawn again (shell.js renderBoard): back to the
// control that had it, else the nearest one that is still there; never the page itself.
import * as roving from "./roving.js";

export function focusedKey(board) {
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
export function keyedControls(board) {
  return [...board.querySelectorAll("[data-key]")].filter(focusable).map((el) => el.dataset.key);
}

// After a re-render, the focus goes back to the control that had it; if that control is gone or
// cannot take the focus now (a card played, a button that waits), to its group's Tab stop (the
// item now at its place), else to the next control that was after it, else the one before it,
// else the first control of the table, else the table itself (its tabindex is -1 for that): never
// the page, which would send a keyboard child back through the header. A control in a group is
// reached through its group's Tab stop, where the child left that group.
export function restoreFocus(board, key, keysBefore = [], group = null) {
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
