// The homework form shows only the part that fits what the teacher picks: puzzles or games
// against bots, and the options of the chosen game. Without this script every part is shown and
// the server ignores the parts that do not apply.
const form = document.querySelector("[data-homework-form]");
const ranges = JSON.parse(document.getElementById("homework-players")?.textContent || "{}");

function update() {
  const kind = form.querySelector("input[name=kind]:checked")?.value;
  for (const part of form.querySelectorAll("[data-kind]")) {
    part.hidden = Boolean(kind) && part.dataset.kind !== kind;
  }
  const variant = form.querySelector("select[name=variant]")?.value;
  let shown = 0;
  for (const option of form.querySelectorAll("[data-variants]")) {
    option.hidden = !option.dataset.variants.split(" ").includes(variant);
    if (!option.hidden) shown += 1;
  }
  const options = form.querySelector(".homework-options");
  if (options) options.hidden = shown === 0;
  const players = form.querySelector("input[name=players]");
  const range = ranges[variant];
  if (players && range) {
    players.min = String(range[0]);
    players.max = String(range[1]);
  }
}

if (form) {
  form.addEventListener("change", update);
  update();
}
