// "Signs in with": only the chosen kind's part stays, the picture picker for a picture password,
// the PIN field for a PIN. The other part is hidden and disabled, so it is neither read aloud nor
// sent. Without this script both parts show and the server checks what fits the chosen kind.
for (const fields of document.querySelectorAll("[data-secret-fields]")) {
  const update = () => {
    const kind = fields.querySelector("input[name=kind]:checked")?.value;
    for (const part of fields.querySelectorAll("[data-secret-for]")) {
      const off = Boolean(kind) && part.dataset.secretFor !== kind;
      part.hidden = off;
      for (const input of part.querySelectorAll("input")) input.disabled = off;
    }
  };
  fields.addEventListener("change", update);
  update();
  fields.dataset.ready = "true";
}
