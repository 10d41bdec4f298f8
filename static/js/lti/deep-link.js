// The deep-linking picker: only the chosen kind's part shows (a game, a homework or a personal
// practice), and within a game only the chosen variant's options. The others are hidden and
// disabled, so they are neither read aloud nor sent. Without this script every part shows and
// the server reads only the chosen kind's and variant's fields.
const form = document.querySelector("[data-deep-link-form]");
if (form) {
  const variant = form.querySelector("select[name=variant]");
  const update = () => {
    const kind = form.querySelector("input[name=kind]:checked")?.value;
    for (const part of form.querySelectorAll("[data-kind-part]")) {
      const off = Boolean(kind) && part.dataset.kindPart !== kind;
      part.hidden = off;
      part.disabled = off;
    }
    for (const options of form.querySelectorAll("fieldset[data-variant]")) {
      const chosen = options.dataset.variant === variant.value;
      options.hidden = !chosen;
      options.disabled = !chosen;
    }
  };
  form.addEventListener("change", update);
  update();
}
