// Count to ten (tests/engine/count_to_ten.py, tests/engine/count_to_ten.md): the renderer of the
// test-only game, served in the tests alone (tests/settings.py adds tests/static). The child
// counts on by one or two and types the number they reach.
import { h } from "../dom.js";
import { gettext } from "../i18n.js";
import { isMyTurn, say, sendThenRerender, who } from "../table.js";

export function render(root, view, ctx) {
  const myTurn = isMyTurn(view, ctx);
  const step = ctx.ui.step || 1;
  const field = h("input", {
    id: "ctt-answer",
    type: "number",
    inputmode: "numeric",
    "data-key": "answer",
    disabled: !myTurn || ctx.pending,
  });
  const send = () => {
    const answer = Number.parseInt(field.value, 10);
    if (Number.isInteger(answer)) sendThenRerender(ctx, { type: "add", step, answer });
  };
  root.replaceChildren(
    h("div", { class: "ctt" }, [
      h("p", { class: "ctt-count" }, say(gettext("The count is at %(count)s. The goal is %(goal)s."), view)),
      h(
        "div",
        { class: "ctt-steps", role: "group", "aria-label": gettext("Count on by") },
        [1, 2].map((n) =>
          h(
            "button",
            {
              type: "button",
              class: "ctt-step",
              "data-key": `step-${n}`,
              "aria-pressed": String(step === n),
              disabled: !myTurn,
              onclick: () => {
                ctx.ui.step = n;
                ctx.rerender();
              },
            },
            `+${n}`,
          ),
        ),
      ),
      h("label", { for: "ctt-answer" }, gettext("The number you reach")),
      field,
      h("button", { type: "button", class: "action-button", "data-key": "say", disabled: !myTurn, onclick: send }, gettext("Say it")),
    ]),
  );
}

export function describe(event, ctx) {
  if (event.type === "attempt") {
    return say(gettext("%(name)s said %(answer)s."), { name: who(event.seat, ctx), answer: event.answer });
  }
  if (event.type === "resigned") return say(gettext("%(name)s gave up."), { name: who(event.seat, ctx) });
  return null;
}
