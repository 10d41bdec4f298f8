// Numbers as a child may need them beside the digits (issue 22, accommodations), for the game
// renderers: dots in ten-frames, and what the read-aloud control says for a card.
//
//   withDots(ctx, 7)               -> <span>7 <svg ten-frame></span> when the child's `dots` is on,
//                                     else "7"
//   readAs(12), readAs("+", 12)    -> "12", "+ 12": a data-read value, spoken by the read-aloud
//
// The ten-frames are drawings only (aria-hidden): the number stays as text, and every numbered
// card keeps an accessible name with its number.

import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const MAX_DOTS = 20;
const COLUMNS = 5;
const CELL = 10;
const GAP = 3; // between the two frames of 11-20

function svg(tag, attrs) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  return element;
}

// One frame of 2 x 5 cells, `dots` of them filled in reading order (the top row first).
function frame(dots, top) {
  const group = svg("g", { class: "ten-frame", transform: `translate(0 ${top})` });
  group.append(svg("rect", { class: "ten-frame-box", x: 0.5, y: 0.5, width: COLUMNS * CELL, height: 2 * CELL }));
  for (let cell = 0; cell < 2 * COLUMNS; cell += 1) {
    const x = (cell % COLUMNS) * CELL + 0.5;
    const y = Math.floor(cell / COLUMNS) * CELL + 0.5;
    group.append(svg("rect", { class: "ten-frame-cell", x, y, width: CELL, height: CELL }));
    if (cell < dots) {
      group.append(svg("circle", { class: "ten-frame-dot", cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.34 }));
    }
  }
  return group;
}

// The number 0-20 as ten-frames: one frame up to 10, two (the first full) for 11-20. Null for
// anything else (a larger number, a joker, an operator).
export function tenFrames(value) {
  const number = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (!Number.isInteger(number) || number < 0 || number > MAX_DOTS) return null;
  const frames = number > 10 ? 2 : 1;
  const width = COLUMNS * CELL + 1;
  const height = frames * (2 * CELL + 1) + (frames - 1) * GAP;
  const drawing = svg("svg", {
    class: `ten-frames ten-frames-${frames}`,
    viewBox: `0 0 ${width} ${height}`,
    "aria-hidden": "true",
    focusable: "false",
    "data-dots": number,
  });
  drawing.append(frame(Math.min(number, 10), 0));
  if (frames === 2) drawing.append(frame(number - 10, 2 * CELL + 1 + GAP));
  return drawing;
}

// The face of a number as the child sees it: the digits, and the ten-frames beside them when
// their `dots` accommodation is on (ctx.dots). `face` is what is shown (default: the number).
export function withDots(ctx, value, face = String(value)) {
  if (!ctx || !ctx.dots) return face;
  const drawing = tenFrames(value);
  if (!drawing) return face;
  return h("span", { class: "with-dots" }, h("span", { class: "with-dots-digits" }, face), drawing);
}

// What the read-aloud control says for an element (its data-read attribute): numbers and the
// operators + − × = between them, separated by spaces ("12", "+ 12", "3 × 4 =").
export function readAs(...parts) {
  return parts
    .filter((part) => part !== null && part !== undefined && part !== "")
    .map((part) => String(part))
    .join(" ");
}
