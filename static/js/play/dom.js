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
