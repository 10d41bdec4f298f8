// Django's JavaScript catalog (/jsi18n/, loaded by play.html before the modules) defines gettext,
// ngettext and interpolate on window. Renderers import them from here and call them with literal
// strings (`gettext("Pass")`) so that `makemessages -d djangojs` finds the texts.
const catalog = globalThis;

export function gettext(text) {
  return typeof catalog.gettext === "function" ? catalog.gettext(text) : text;
}

export function ngettext(singular, plural, count) {
  if (typeof catalog.ngettext === "function") return catalog.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

// interpolate("%(name)s won", {name: "Ana"}, true) or interpolate("%s won", ["Ana"]).
export function interpolate(format, values, named = false) {
  if (typeof catalog.interpolate === "function") return catalog.interpolate(format, values, named);
  if (named) return format.replace(/%\(\w+\)s/g, (m) => String(values[m.slice(2, -2)]));
  let i = 0;
  return format.replace(/%s/g, () => String(values[i++]));
}
