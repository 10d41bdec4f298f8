// Mathable Junior (docs/rules/mathable_junior.md), both sides of the board. The child picks a
// tile of the rack, then a square of the 10 x 10 board. The board is one tab stop: arrow keys
// move between its squares (a roving tabindex, ../roving.js), Enter or Space places the chosen
// tile.
import { h } from "../dom.js";
import { current, moveTo } from "../roving.js";
import { gettext, ngettext } from "../i18n.js";
import { ltr, rightToLeft } from "../../numerals.js";
import { readAs, withDots } from "../numbers.js";
import { isMyTurn, say, sendThenRerender } from "../table.js";

const SIZE = 10;
// Where the board's Tab stop is before the child has moved on it: by the tiles of the start.
const START = { row: 4, col: 4 };
function situation(view, ctx) {
  return { myTurn: isMyTurn(view, ctx), front: view.side === "front" };
}

function rack(view) {
  return Array.isArray(view.rack) ? view.rack : [];
}

// Tiles are plain values (a rack may hold two 5s), so the selection is a position in the rack.
function selectedTile(view, ctx) {
  const tiles = rack(view);
  const index = ctx.ui.tile;
  return Number.isInteger(index) && index < tiles.length ? tiles[index] : null;
}

function squareKind(view, row, col) {
  if (view.side === "front") {
    switch (view.squares[row][col]) {
      case "2X":
        return gettext("double points");
      case "+":
        return gettext("plus square");
      case "-":
        return gettext("minus square");
      default:
        return "";
    }
  }
  return say(gettext("printed %(number)s"), { number: view.numbers[row][col] });
}

function squareMark(view, row, col, ctx) {
  if (view.side === "front") {
    const label = view.squares[row][col];
    return { "2X": "2×", "+": "+", "-": "−" }[label] || "";
  }
  return withDots(ctx, view.numbers[row][col]);
}

// What the read-aloud says for a square: its tile, else its printed number or its sign.
function squareReading(view, row, col) {
  const tile = view.board[row][col];
  if (tile !== null) return { read: readAs(tile) };
  if (view.side === "back") return { read: readAs(view.numbers[row][col]) };
  const sign = { "+": "+", "-": "−" }[view.squares[row][col]];
  return sign ? { read: sign } : {};
}

// The board is the printed one: its columns stay where the box prints them on every page (the
// grid is dir="ltr", and so are the equations read along its rows). A reader of a page written
// right to left counts its columns from the right, where they start reading: column 1 is there.
function columnNumber(col) {
  return rightToLeft() ? SIZE - col : col + 1;
}

function squareLabel(view, row, col) {
  const tile = view.board[row][col];
  const where = say(gettext("row %(row)s, column %(col)s"), { row: row + 1, col: columnNumber(col) });
  if (tile !== null) return say(gettext("%(where)s, tile %(tile)s"), { where, tile });
  const kind = squareKind(view, row, col);
  return kind
    ? say(gettext("%(where)s, empty, %(kind)s"), { where, kind })
    : say(gettext("%(where)s, empty"), { where });
}

function placeOn(row, col, view, ctx) {
  const { ui } = ctx;
  const tile = selectedTile(view, ctx);
  // An occupied or wrongly numbered square is still sent: the server's answer tells the child why.
  if (!situation(view, ctx).myTurn || ui.exchange) return;
  if (tile === null) {
    ui.notice = gettext("First choose a tile from your rack.");
    ctx.rerender();
    return;
  }
  sendThenRerender(ctx, { type: "place", tile, row, col }, () => {
    ui.tile = null;
  });
}

function boardGrid(view, ctx) {
  const tile = selectedTile(view, ctx);
  const rows = [];
  for (let row = 0; row < SIZE; row += 1) {
    const cells = [];
    for (let col = 0; col < SIZE; col += 1) {
      const placed = view.board[row][col];
      const classes = ["mj-square"];
      if (placed !== null) classes.push("has-tile");
      else if (view.side === "front") {
        const label = view.squares[row][col];
        if (label === "2X") classes.push("is-double");
        else if (label === "+") classes.push("is-plus");
        else if (label === "-") classes.push("is-minus");
      } else if (tile !== null && view.numbers[row][col] === tile) {
        // The back side asks for a tile's own number: showing where those squares are is not
        // the sum, which the child still has to find.
        classes.push("is-match");
      }
      cells.push(
        h(
          "div",
          { role: "gridcell", class: "mj-cell" },
          h(
            "button",
            {
              type: "button",
              class: classes.join(" "),
              "data-roving-start": row === START.row && col === START.col,
              "aria-label": squareLabel(view, row, col),
              dataset: {
                key: `square-${row}-${col}`,
                row: String(row),
                col: String(col),
                ...squareReading(view, row, col),
              },
              onclick: () => placeOn(row, col, view, ctx),
            },
            placed !== null
              ? h("span", { class: "mj-tile", "aria-hidden": "true" }, withDots(ctx, placed))
              : h("span", { class: "mj-mark", "aria-hidden": "true" }, squareMark(view, row, col, ctx)),
          ),
        ),
      );
    }
    rows.push(h("div", { role: "row", class: "mj-row" }, cells));
  }
  return h(
    "div",
    { class: "mj-board-wrap" },
    h(
      "div",
      {
        role: "grid",
        dir: "ltr",
        class: `mj-board mj-board-${view.side}`,
        "aria-label": gettext("Board, 10 rows and 10 columns"),
        dataset: { roving: "board" },
      },
      rows,
    ),
  );
}

function rackSection(view, ctx, state) {
  const { ui } = ctx;
  const tiles = rack(view);
  const chosen = new Set(ui.exchangeTiles);
  return h(
    "section",
    { class: "mj-rack", "aria-label": gettext("Your tiles") },
    h("h2", {}, gettext("Your tiles")),
    tiles.length
      ? h(
          "ul",
          { class: "mj-rack-tiles", dataset: { roving: "rack" } },
          tiles.map((tile, index) => {
            const pressed = ui.exchange ? chosen.has(index) : ui.tile === index;
            return h(
              "li",
              {},
              h(
                "button",
                {
                  type: "button",
                  class: "mj-tile mj-rack-tile",
                  "aria-pressed": pressed ? "true" : "false",
                  "aria-label": ui.exchange
                    ? say(gettext("Tile %(tile)s, to exchange"), { tile })
                    : say(gettext("Tile %(tile)s"), { tile }),
                  dataset: { key: `rack-${index}`, tile: String(tile), read: readAs(tile) },
                  onclick: () => {
                    if (ui.exchange) {
                      ui.exchangeTiles = chosen.has(index)
                        ? ui.exchangeTiles.filter((i) => i !== index)
                        : [...ui.exchangeTiles, index];
                    } else {
                      ui.tile = ui.tile === index ? null : index;
                      ui.notice = null;
                    }
                    ctx.rerender();
                  },
                },
                withDots(ctx, tile),
              ),
            );
          }),
        )
      : h("p", {}, gettext("You have no tiles.")),
    ui.notice ? h("p", { class: "mj-notice", role: "status" }, ui.notice) : null,
    state.myTurn && !ui.exchange
      ? h("p", { class: "mj-help" }, gettext("Choose a tile, then the square to put it on."))
      : null,
  );
}

function turnFacts(view) {
  const facts = [
    say(gettext("Wrong drops left this turn: %(count)s"), {
      count: view.wrong_drops_allowed - view.wrong_drops_this_turn,
    }),
  ];
  if (view.side === "front") {
    if (view.extra_draws > 0) {
      facts.push(say(gettext("Extra tiles you may draw: %(count)s"), { count: view.extra_draws }));
    }
    if (view.bonus_in_reach) {
      facts.push(gettext("Place all your tiles this turn for 25 bonus points!"));
    }
  }
  return h("ul", { class: "mj-facts" }, facts.map((fact) => h("li", {}, fact)));
}

function frontActions(view, ctx, state) {
  const { ui } = ctx;
  if (ui.exchange) {
    const count = ui.exchangeTiles.length;
    const tiles = ui.exchangeTiles.map((i) => rack(view)[i]);
    return h(
      "div",
      {
        class: "mj-actions",
        role: "group",
        "aria-label": gettext("Exchange tiles"),
        dataset: { roving: "exchange" },
      },
      h("p", {}, gettext("Choose the tiles to give back to the pot.")),
      h(
        "button",
        {
          type: "button",
          class: "button",
          disabled: !(state.myTurn && count > 0 && count <= view.pot_count),
          dataset: { key: "exchange-confirm" },
          onclick: () =>
            sendThenRerender(ctx, { type: "exchange", tiles }, () => {
              ui.exchange = false;
              ui.exchangeTiles = [];
            }),
        },
        say(gettext("Exchange these tiles (%(count)s)"), { count }),
      ),
      h(
        "button",
        {
          type: "button",
          class: "button button-secondary",
          dataset: { key: "exchange-cancel" },
          onclick: () => {
            ui.exchange = false;
            ui.exchangeTiles = [];
            ctx.rerender();
          },
        },
        gettext("Cancel"),
      ),
    );
  }
  return h(
    "div",
    { class: "mj-actions", dataset: { roving: "actions" } },
    h(
      "button",
      {
        type: "button",
        class: "button",
        disabled: !(state.myTurn && view.extra_draws > 0 && view.pot_count > 0),
        dataset: { key: "draw" },
        onclick: () => sendThenRerender(ctx, { type: "draw" }, () => {}),
      },
      gettext("Draw an extra tile"),
    ),
    h(
      "button",
      {
        type: "button",
        class: "button button-secondary",
        disabled: !(state.myTurn && view.placed_this_turn === 0 && view.pot_count > 0),
        dataset: { key: "exchange" },
        onclick: () => {
          ui.exchange = true;
          ui.exchangeTiles = [];
          ui.tile = null;
          ctx.rerender();
        },
      },
      gettext("Exchange tiles"),
    ),
    h(
      "button",
      {
        type: "button",
        class: "button button-secondary",
        disabled: !state.myTurn,
        dataset: { key: "end-turn" },
        onclick: () => sendThenRerender(ctx, { type: "end_turn" }, () => {}),
      },
      view.placed_this_turn === 0 ? gettext("Pass") : gettext("End my turn"),
    ),
  );
}

function playersSection(view, ctx) {
  const items = (ctx.seats || []).map((seat) => {
    if (view.side === "back") {
      const tiles = view.racks[seat.seat];
      return h(
        "li",
        { dataset: { seat: String(seat.seat) } },
        tiles.length
          ? say(gettext("%(name)s's tiles: %(tiles)s"), {
              name: seat.name,
              tiles: tiles.join(", "),
            })
          : say(gettext("%(name)s has no tiles."), { name: seat.name }),
      );
    }
    return h(
      "li",
      {},
      say(gettext("%(name)s: %(count)s tiles"), {
        name: seat.name,
        count: view.rack_counts[seat.seat],
      }),
    );
  });
  return h(
    "section",
    { class: "mj-players", "aria-label": gettext("Players") },
    h("p", {}, say(gettext("Tiles in the pot: %(count)s"), { count: view.pot_count })),
    h("ul", {}, items),
  );
}

function tidy(ui, view) {
  if (!Array.isArray(ui.exchangeTiles)) ui.exchangeTiles = [];
  const tiles = rack(view);
  // A new rack (a placement, a draw) may not hold the chosen position any more.
  const signature = tiles.join(",");
  if (ui.rackSignature !== signature) {
    ui.rackSignature = signature;
    ui.tile = null;
    ui.exchangeTiles = [];
  }
  if (view.side !== "front" || view.outcome) ui.exchange = false;
}

export function render(root, view, ctx) {
  const focused = root.contains(document.activeElement)
    ? document.activeElement.closest("[data-key]")
    : null;
  const { ui } = ctx;
  tidy(ui, view);
  const state = situation(view, ctx);
  if (!state.myTurn) ui.notice = null;
  if (!root.hasAttribute("tabindex")) root.setAttribute("tabindex", "-1");
  root.replaceChildren(
    h(
      "div",
      { class: `board board-mathable board-mathable-${view.side}` },
      // The rack first, then the board: the page says "Choose a tile, then the square to put it
      // on", and the Tab order (and the reading order) follows it.
      ctx.spectator ? null : rackSection(view, ctx, state),
      boardGrid(view, ctx),
      h(
        "div",
        { class: "mj-side" },
        // The buttons beside or under the board, the turn's facts after them: a tablet shows the
        // rack, the board and the buttons on its first screen.
        !ctx.spectator && state.front ? frontActions(view, ctx, state) : null,
        state.myTurn ? turnFacts(view) : null,
        playersSection(view, ctx),
      ),
    ),
  );
  if (focused) {
    const key = focused.dataset.key;
    const target = [...root.querySelectorAll("[data-key]")].find((el) => el.dataset.key === key);
    // A control that went away or was disabled (the turn passed) leaves the focus in the game.
    if (target && !target.disabled) target.focus({ preventScroll: true });
    else root.focus({ preventScroll: true });
  }
}

// Read aloud: the tiles of the child's rack (read by themselves when the rack changes).
export function readAloud(view) {
  const tiles = rack(view);
  if (tiles.length === 0) return null;
  return { key: `rack-${tiles.join(",")}`, text: tiles.join(" ") };
}

// --- keys ------------------------------------------------------------------------------------

// A square "beside two tiles in a line": the only squares where a tile can make an equation
// (engine/mathable_junior.py, _neighbour_lines). Which number fits is still the child's sum.
function besideALine(view, row, col) {
  const tileAt = (r, c) => r >= 0 && r < SIZE && c >= 0 && c < SIZE && view.board[r][c] !== null;
  return [
    [-1, 0],
    [1, 0],
    [0, -1],
    [0, 1],
  ].some(([dr, dc]) => tileAt(row + dr, col + dc) && tileAt(row + 2 * dr, col + 2 * dc));
}

// The squares G goes through: on the back side, with a tile chosen, the free squares printed
// with its number (the board marks them already); else the free squares beside two tiles in a
// line.
function openSquare(view, ctx, row, col) {
  if (view.board[row][col] !== null) return false;
  const tile = selectedTile(view, ctx);
  if (view.side === "back" && tile !== null) return view.numbers[row][col] === tile;
  return besideALine(view, row, col);
}

function goToSquare(root, row, col) {
  const grid = root.querySelector("[role=grid]");
  const to = grid && grid.querySelector(`button[data-row="${row}"][data-col="${col}"]`);
  if (!to) return false;
  moveTo(to);
  return true;
}

// G: the next open square after the cursor (the board's Tab stop) in reading order (Shift+G: the
// one before), round the board; the focus goes there, and Enter or Space puts the chosen tile on
// it.
function nextOpenSquare(root, view, ctx, backwards) {
  const grid = root.querySelector("[role=grid]");
  const cursor = grid ? current(grid) : null;
  const row = cursor ? Number(cursor.dataset.row) : START.row;
  const col = cursor ? Number(cursor.dataset.col) : START.col;
  const here = row * SIZE + col;
  const count = SIZE * SIZE;
  for (let step = 1; step <= count; step += 1) {
    const square = (here + (backwards ? -step : step) + count) % count;
    const [r, c] = [Math.floor(square / SIZE), square % SIZE];
    if (openSquare(view, ctx, r, c)) return goToSquare(root, r, c);
  }
  return false;
}

const ACTION_KEYS = { d: "draw", x: "exchange", e: "end-turn" };

// 1-9 and 0 pick the tiles of the rack in the order shown, G goes to the next open square (Enter
// or Space places the tile there: the square is a button), D draws an extra tile, X opens the
// exchange (X again exchanges the chosen tiles, Escape cancels), E ends the turn.
export function keyShortcut(event, view, ctx) {
  const root = document.getElementById("play-board");
  const key = event.key.toLowerCase();
  let control = null;
  if (/^[0-9]$/.test(key)) {
    const index = key === "0" ? 9 : Number(key) - 1;
    control = root.querySelector(`[data-key="rack-${index}"]`);
  } else if (key === "g") {
    return situation(view, ctx).myTurn && nextOpenSquare(root, view, ctx, event.shiftKey);
  } else if (key === "x" && ctx.ui.exchange) {
    control = root.querySelector('[data-key="exchange-confirm"]');
  } else if (key === "escape" && ctx.ui.exchange) {
    control = root.querySelector('[data-key="exchange-cancel"]');
  } else if (ACTION_KEYS[key]) {
    control = root.querySelector(`[data-key="${ACTION_KEYS[key]}"]`);
  }
  if (!control || control.disabled) return false;
  control.click();
  return true;
}

export function keysNote(view, ctx) {
  if (ctx.spectator) return null;
  if (view.side === "back") {
    return gettext(
      "1–9: your tiles · G: the next free square with your tile's number · Enter: put the tile there",
    );
  }
  return gettext(
    "1–9: your tiles · G: the next square beside two tiles in a line · Enter: put the tile there · D: draw an extra tile · X: exchange · E: end the turn",
  );
}

// Kept left to right in a sentence on a page read right to left.
function equationText(equation) {
  const operator = equation.operator === "-" ? "−" : "+";
  return ltr(`${equation.operands[0]} ${operator} ${equation.operands[1]} = ${equation.result}`);
}

export function describe(event, ctx) {
  const name = event.seat !== undefined && event.seat !== null ? ctx.seatName(event.seat) : "";
  const where =
    event.row !== undefined
      ? say(gettext("row %(row)s, column %(col)s"), { row: event.row + 1, col: columnNumber(event.col) })
      : "";
  switch (event.type) {
    case "tile_placed":
      return say(
        ngettext(
          "%(name)s placed %(tile)s at %(where)s (%(equations)s): %(points)s point.",
          "%(name)s placed %(tile)s at %(where)s (%(equations)s): %(points)s points.",
          event.points,
        ),
        {
          name,
          tile: event.tile,
          where,
          equations: (event.equations || []).map(equationText).join(", ") || "–",
          points: event.points,
        },
      );
    case "wrong_drop": {
      const values = { name, tile: event.tile, where };
      switch (event.reason) {
        case "no_line":
          return say(
            gettext("%(name)s's %(tile)s at %(where)s is not next to two tiles in a line."),
            values,
          );
        case "wrong_operation":
          return say(
            gettext("%(name)s's %(tile)s at %(where)s does not use the square's sign."),
            values,
          );
        case "must_score":
          return say(
            gettext("%(name)s's %(tile)s can score on another square: it must score."),
            values,
          );
        default:
          return say(
            gettext("%(name)s's %(tile)s at %(where)s does not make an equation."),
            values,
          );
      }
    }
    case "bonus":
      return say(
        ngettext(
          "%(name)s placed every tile: %(points)s bonus point!",
          "%(name)s placed every tile: %(points)s bonus points!",
          event.points,
        ),
        { name, points: event.points },
      );
    case "tile_drawn":
      return say(gettext("%(name)s drew an extra tile."), { name });
    case "tiles_exchanged":
      return say(
        ngettext(
          "%(name)s exchanged %(count)s tile.",
          "%(name)s exchanged %(count)s tiles.",
          event.count,
        ),
        { name, count: event.count },
      );
    case "rack_refilled":
      return say(gettext("%(name)s had no tiles, took new ones and passes."), { name });
    case "tiles_drawn":
      return say(gettext("%(name)s drew %(tiles)s."), { name, tiles: event.tiles.join(", ") });
    case "turn_ended":
      return event.reason === "passed" || event.passed
        ? say(gettext("%(name)s passed."), { name })
        : null;
    case "turn_started":
      return say(gettext("It is %(name)s's turn."), { name });
    case "game_over":
      if (event.reason === "all_passed") return gettext("Everybody passed: the game is over.");
      if (event.reason === "all_tiles_placed") return gettext("All the tiles are on the board.");
      return gettext("The pot is empty and a rack is empty: the game is over.");
    default:
      return null;
  }
}
