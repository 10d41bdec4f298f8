// Numbers on a page read right to left, and the digits the school chose (docs/translations.md,
// "Right to left" and "Digits"; accounts/bidi.py and accounts/digits.py on the server).
//
//   ltr("3 + 4 = 7")            a sentence's placeholder value, isolated and held left to right on
//                               a right-to-left page (Unicode isolate + override marks); as it is
//                               on any other page
//   expression(...children)     <bdo dir="ltr">: an expression, an equation or a signed number
//                               drawn on a card, a board or a hand, kept left to right
//   western("٧٢")               "72": what a child typed, in either digit set, read as numbers
//
// Base.html loads this module on every page whose school shows Eastern Arabic digits
// (<html data-digits="arab">): from then on every number the page draws, server-rendered or
// drawn later by a script or a socket's news, is shown in them (its text and its aria-label).
// Class codes and addresses, typed as they are shown, stay as they are ([data-digits="latn"]).

const html = document.documentElement;
const OPEN = "\u2066\u202d"; // left-to-right isolate, left-to-right override
const CLOSE = "\u202c\u2069"; // pop directional formatting, pop directional isolate
const WESTERN = "0123456789";
const EASTERN = "٠١٢٣٤٥٦٧٨٩";
const PERSIAN = "۰۱۲۳۴۵۶۷۸۹";

export function rightToLeft() {
  return html.dir === "rtl";
}

export function ltr(text) {
  const value = String(text);
  return rightToLeft() && value ? OPEN + value + CLOSE : value;
}

export function expression(...children) {
  const element = document.createElement("bdo");
  element.dir = "ltr";
  element.className = "expression";
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export function western(text) {
  return String(text).replace(/[٠-٩۰-۹]/g, (digit) => {
    const eastern = EASTERN.indexOf(digit);
    return String(eastern >= 0 ? eastern : PERSIAN.indexOf(digit));
  });
}

export function easternDigits() {
  return html.dataset.digits === "arab";
}

function eastern(text) {
  return text.replace(/[0-9]/g, (digit) => EASTERN[WESTERN.indexOf(digit)]);
}

const KEPT = "script, style, textarea, input, select, code, kbd, samp, pre, [data-digits='latn']";
const LABELS = ["aria-label", "title"];

function kept(node) {
  const element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
  return !element || element.closest(KEPT) !== null;
}

function localiseText(node) {
  if (!/[0-9]/.test(node.data) || kept(node)) return;
  const shown = eastern(node.data);
  if (shown !== node.data) node.data = shown;
}

function localiseLabels(element) {
  if (kept(element)) return;
  for (const name of LABELS) {
    const value = element.getAttribute(name);
    if (value && /[0-9]/.test(value)) element.setAttribute(name, eastern(value));
  }
}

// Every text and label under `root` in the school's digits.
export function localise(root) {
  if (root.nodeType === Node.TEXT_NODE) {
    localiseText(root);
    return;
  }
  if (root.nodeType !== Node.ELEMENT_NODE) return;
  localiseLabels(root);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) localiseText(node);
    else localiseLabels(node);
  }
}

// The page as it is, then whatever is drawn on it later.
function keepLocalised(root) {
  localise(root);
  if (document.title && /[0-9]/.test(document.title)) document.title = eastern(document.title);
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === "childList") change.addedNodes.forEach(localise);
      else if (change.type === "characterData") localiseText(change.target);
      else localiseLabels(change.target);
    }
  }).observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: LABELS });
}

if (easternDigits() && !html.dataset.digitsShown) {
  html.dataset.digitsShown = "true";
  keepLocalised(document.body);
}
