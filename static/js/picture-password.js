// Builds a picture password from taps (or Enter/Space on a focused picture) into the hidden
// "secret" field. The pictures are real buttons, so keyboards and screen readers work as is.
for (const fieldset of document.querySelectorAll("[data-picture-password]")) {
  const form = fieldset.closest("form");
  const secret = form.querySelector("input[name=secret]");
  const progress = fieldset.querySelector("[data-progress]");
  const max = Number(fieldset.dataset.max);
  const chosen = [];

  const show = () => {
    secret.value = chosen.join("-");
    progress.textContent = progress.dataset.template.replace("{count}", String(chosen.length));
  };

  for (const button of fieldset.querySelectorAll("[data-picture]")) {
    button.addEventListener("click", () => {
      if (chosen.length < max) chosen.push(button.dataset.picture);
      show();
    });
  }
  fieldset.querySelector("[data-clear]").addEventListener("click", () => {
    chosen.length = 0;
    show();
  });
  secret.value = "";
  show();
  fieldset.dataset.ready = "true";
}
