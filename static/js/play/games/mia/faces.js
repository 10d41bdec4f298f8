// ¡Mía!'s cards and targets in words and on the screen: "+12" drawn and read left to right on any
// page, "Sum 12" for screen readers, an equation as the rulebook writes it.
import { gettext } from "../../i18n.js";
import { expression, ltr } from "../../../numerals.js";
import { withDots } from "../../numbers.js";
import { say, who } from "../../table.js";

export function optionText(option) {
  return `${option.op === "-" ? "−" : "+"}${option.target}`;
}

// A target in a sentence: "+12" kept left to right on a page read right to left (not "12+").
export function optionShown(option) {
  return ltr(optionText(option));
}

// A target said in words, for screen readers ("Sum 12", "Difference 3").
export function optionName(option) {
  return option.op === "-"
    ? say(gettext("Difference %(target)s"), { target: option.target })
    : say(gettext("Sum %(target)s"), { target: option.target });
}

// The target as drawn: "+12" (left to right on any page), and its ten-frames for a child with dots.
export function optionFace(option, ctx) {
  return withDots(ctx, option.target, expression(optionText(option)));
}

export function cardText(card) {
  if (card.kind === "wild") return gettext("Wild");
  if (card.kind === "extra_time") return gettext("Extra time");
  return String(card.value);
}

// "8 − 5" for a difference (larger first), "5 + 8" for a sum, as the rulebook writes them.
function writtenSum(values, op) {
  const [a, b] = values;
  return op === "-" ? `${Math.max(a, b)} − ${Math.min(a, b)}` : `${a} + ${b}`;
}

// "8 − 5 = 3" in a sentence, kept left to right as one on a page read right to left.
export function equation(values, op, result) {
  return ltr(`${writtenSum(values, op)} = ${result}`);
}

export function wrongWhy(values, op, result, target) {
  return say(gettext("%(equation)s, not %(target)s"), {
    equation: equation(values, op, result),
    target,
  });
}

// Who got the card right, when a calm table's card closes (docs/rules/mia.md).
export function closedText(right, ctx) {
  if (!right.length) return gettext("Nobody got that card right.");
  const names = right.map((seat) => who(seat, ctx)).join(", ");
  return say(gettext("Right on that card: %(names)s."), { names });
}
