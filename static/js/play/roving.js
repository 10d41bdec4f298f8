// One Tab stop per group of choices, the arrow keys moving inside it: the roving tabindex of the
// WAI-ARIA Authoring Practices (toolbar, grid). A child who plays by Tab, arrows and Enter alone
// crosses a hand of ten cards with one Tab, not ten.
//
// A renderer marks each group with a name that stays the same from one drawing to the next:
//   h("div", {role: "group", dataset: {roving: "hand"}}, cards...)
// Its items are the buttons inside it (not those of a group nested in it). A group with
// role="grid" is a grid: its [role=row] elements are the rows, and Up/Down move between them; a
// group with data-roving-columns="5" is a grid of its items, five to a row (a CSS grid).
// The shell (shell.js) calls settle() after every drawing and handles the keys once for every game.
//
// Keys, on an item of a group:
//   a row: Right/Down the next item, Left/Up the one before (Left and Right swap on a page read
//          right to left), Home/End the first/last;
//   a grid: Left/Right along the row (swapped right to left), Up/Down the same column in the row
//          above/below, Home/End the row's first/last, Ctrl+Home/Ctrl+End the grid's first/last.
// Enter and Space press the item (it is a button). Disabled items are passed over.
//
// Which item is a group's Tab stop, after each drawing: the one with the focus; else the one the
// child was last on (by its data-key), or the item now at its place if it went (a card played);
// else the one marked data-roving-start; else the first pressed one (aria-pressed); else the first.

const memories = new WeakMap(); // board -> Map(group name -> {key, index})

function memoryOf(board) {
  if (!memories.has(board)) memories.set(board, new Map());
  return memories.get(board);
}

function groupOf(element) {
  return element && element.closest ? element.closest("[data-roving]") : null;
}

// The group's items in page order, the disabled ones too (they keep their place in a grid).
function allItems(group) {
  return [...group.querySelectorAll("button")].filter((item) => groupOf(item) === group);
}

function usable(item) {
  return !item.disabled && !item.closest("[hidden]");
}

export function items(group) {
  return allItems(group).filter(usable);
}

function isGrid(group) {
  return group.getAttribute("role") === "grid" || group.hasAttribute("data-roving-columns");
}

// A grid's items, row by row.
function gridRows(group) {
  const columns = Number(group.dataset.rovingColumns);
  if (columns > 0) {
    const every = allItems(group);
    const rows = [];
    for (let at = 0; at < every.length; at += columns) rows.push(every.slice(at, at + columns));
    return rows;
  }
  return [...group.querySelectorAll("[role=row]")]
    .map((row) => [...row.querySelectorAll("button")].filter((b) => groupOf(b) === group))
    .filter((row) => row.length);
}

function rightToLeft(group) {
  return getComputedStyle(group).direction === "rtl";
}

// The item a Tab into the group lands on.
export function current(group) {
  return allItems(group).find((item) => item.tabIndex === 0 && usable(item)) || null;
}

function remember(board, group, item) {
  const index = items(group).indexOf(item);
  memoryOf(board).set(group.dataset.roving, { key: item.dataset.key || null, index });
}

// Makes `item` its group's Tab stop and gives it the focus.
export function moveTo(item) {
  const group = groupOf(item);
  if (group) {
    for (const other of allItems(group)) other.tabIndex = other === item ? 0 : -1;
  }
  item.focus({ preventScroll: false });
}

// After a drawing: one Tab stop per group (none in a group whose items are all disabled).
export function settle(board) {
  const memory = memoryOf(board);
  for (const group of board.querySelectorAll("[data-roving]")) {
    const every = allItems(group);
    for (const item of every) item.tabIndex = -1;
    const choices = every.filter(usable);
    if (choices.length === 0) continue;
    const remembered = memory.get(group.dataset.roving);
    const focused = choices.find((item) => item === document.activeElement);
    const byKey = remembered && remembered.key ? choices.find((item) => item.dataset.key === remembered.key) : null;
    const atPlace =
      remembered && remembered.index >= 0 ? choices[Math.min(remembered.index, choices.length - 1)] : null;
    const chosen =
      focused ||
      byKey ||
      atPlace ||
      choices.find((item) => item.hasAttribute("data-roving-start")) ||
      choices.find((item) => item.getAttribute("aria-pressed") === "true") ||
      choices[0];
    chosen.tabIndex = 0;
  }
}

// Where the focus is before a drawing: its group, if it is in one (restored with enter()).
export function focusedGroup(board) {
  const active = document.activeElement;
  const group = groupOf(active);
  return group && board.contains(group) ? group.dataset.roving : null;
}

// Gives the focus to a group's Tab stop; false when the group is gone or has nothing to press.
export function enter(board, name) {
  const group = [...board.querySelectorAll("[data-roving]")].find((g) => g.dataset.roving === name);
  const item = group ? current(group) : null;
  if (!item) return false;
  item.focus({ preventScroll: true });
  return true;
}

// The element to focus for `element`: its group's Tab stop when it is an item of a group that is
// not the stop itself (the focus moves into a group where the child left it).
export function entryFor(element) {
  const group = groupOf(element);
  if (!group || element.tagName !== "BUTTON") return element;
  return current(group) || element;
}

function nextInRow(group, item, key) {
  const list = items(group);
  if (key === "Home") return list[0];
  if (key === "End") return list[list.length - 1];
  const flip = rightToLeft(group);
  const forward = { ArrowRight: !flip, ArrowLeft: flip, ArrowDown: true, ArrowUp: false }[key];
  return list[list.indexOf(item) + (forward ? 1 : -1)] || null;
}

function nextInGrid(group, item, key, ctrl) {
  const rows = gridRows(group);
  const r = rows.findIndex((row) => row.includes(item));
  if (r < 0) return undefined;
  const c = rows[r].indexOf(item);
  const cell = (i, j) => (rows[i] && j >= 0 && j < rows[i].length ? rows[i][j] : undefined);
  // The first usable square after (i, j), stepping by (di, dj); null at the grid's edge.
  const walk = (i, j, di, dj) => {
    for (i += di, j += dj; cell(i, j) !== undefined; i += di, j += dj) {
      if (usable(cell(i, j))) return cell(i, j);
    }
    return null;
  };
  const ahead = rightToLeft(group) ? -1 : 1;
  switch (key) {
    case "ArrowRight":
      return walk(r, c, 0, ahead);
    case "ArrowLeft":
      return walk(r, c, 0, -ahead);
    case "ArrowDown":
      return walk(r, c, 1, 0);
    case "ArrowUp":
      return walk(r, c, -1, 0);
    case "Home":
      return ctrl ? items(group)[0] : walk(r, -1, 0, 1);
    case "End":
      return ctrl ? items(group).at(-1) : walk(r, rows[r].length, 0, -1);
    default:
      return undefined;
  }
}

const KEYS = new Set(["ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp", "Home", "End"]);

function onKey(board, event) {
  if (event.defaultPrevented || event.altKey || event.metaKey || event.shiftKey) return;
  if (!KEYS.has(event.key)) return;
  const item = event.target;
  const group = groupOf(item);
  if (!group || !board.contains(group) || item.tagName !== "BUTTON") return;
  // Ctrl only with Home and End in a grid (its first and last square).
  if (event.ctrlKey && !(isGrid(group) && (event.key === "Home" || event.key === "End"))) return;
  const next = isGrid(group)
    ? nextInGrid(group, item, event.key, event.ctrlKey)
    : nextInRow(group, item, event.key);
  if (next === undefined) return;
  // At the group's edge the key does nothing (it does not scroll the page under the child).
  event.preventDefault();
  if (next) moveTo(next);
}

// Once per page: the keys, and the item the child was last on in each group.
export function keepOneTabStopPerGroup(board) {
  board.addEventListener("keydown", (event) => onKey(board, event));
  board.addEventListener("focusin", (event) => {
    const group = groupOf(event.target);
    if (!group || event.target.tagName !== "BUTTON") return;
    for (const item of allItems(group)) item.tabIndex = item === event.target ? 0 : -1;
    remember(board, group, event.target);
  });
}
