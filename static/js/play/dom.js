// A tiny DOM builder for the renderers (no framework, no build step).
//   h("button", {type: "button", "aria-pressed": "true", dataset: {key: "card-7"},
//                onclick: () => ...}, "7")
// Attributes whose value is null, undefined or false are left out; true gives an empty attribute.
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "class" || name === "className") element.className = value;
    // Through the CSSOM: a style attribute is inline style, which the Content-Security-Policy
    // (style-src 'self') refuses.
    else if (name === "style" && typeof value === "string") element.style.cssText = value;
    else if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name in element && typeof value !== "string") element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Arrow keys move the focus between the buttons of a group (a hand, a row of options, a grid),
// so a keyboard user does not have to Tab through every card. `columns` > 1 makes Up/Down jump
// a row in a grid.
export function arrowKeys(container, { selector = "button", columns = 0 } = {}) {
  container.addEventListener("keydown", (event) => {
    const items = [...container.querySelectorAll(selector)].filter((el) => !el.disabled);
    const index = items.indexOf(document.activeElement);
    if (index < 0) return;
    const step = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: columns || 1,
      ArrowUp: -(columns || 1),
      Home: -index,
      End: items.length - 1 - index,
    }[event.key];
    if (step === undefined) return;
    const next = items[index + step];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });
}
