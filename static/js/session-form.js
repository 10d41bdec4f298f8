// The new-session form: show only the chosen variant's options (the others are disabled, so they
// are not sent) and keep the table size within the variant's player range (solo variants: 1).

const form = document.querySelector("[data-session-form]");
if (form) {
  const select = form.querySelector("select[name=variant]");
  const size = form.querySelector("input[name=table_size]");
  const show = () => {
    for (const fieldset of form.querySelectorAll("fieldset[data-variant]")) {
      const chosen = fieldset.dataset.variant === select.value;
      fieldset.hidden = !chosen;
      fieldset.disabled = !chosen;
      if (chosen) {
        const low = Number(fieldset.dataset.minPlayers);
        const high = Number(fieldset.dataset.maxPlayers);
        size.min = String(low);
        size.max = String(high);
        const value = Number(size.value) || high;
        size.value = String(Math.min(high, Math.max(low, value)));
        size.readOnly = low === high;
      }
    }
  };
  select.addEventListener("change", show);
  show();
}
