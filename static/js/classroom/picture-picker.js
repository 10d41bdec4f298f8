// The teacher's picture password picker: each tap adds the picture's name to the form's "secret"
// field (which stays a text field, so typing works too, and the form works without scripts).
// A picture password is a PIN's sibling, so tapping a picture also chooses "Picture password".
const MAX_PICTURES = 5;

for (const picker of document.querySelectorAll("[data-picture-picker]")) {
  const form = picker.closest("form");
  const secret = form && form.querySelector("input[name=secret]");
  if (!secret) continue;
  const pictureKind = form.querySelector("input[name=kind][value=picture]");
  const words = () => secret.value.split(/[\s,;+/·-]+/).filter(Boolean);

  for (const button of picker.querySelectorAll("[data-picture-name]")) {
    button.addEventListener("click", () => {
      const chosen = words();
      if (chosen.length >= MAX_PICTURES) return;
      chosen.push(button.dataset.pictureName);
      secret.value = chosen.join(" ");
      if (pictureKind && !pictureKind.checked) {
        pictureKind.checked = true;
        pictureKind.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  }
  picker.querySelector("[data-picture-clear]").addEventListener("click", () => {
    secret.value = "";
    secret.focus();
  });
  picker.dataset.ready = "true";
}
