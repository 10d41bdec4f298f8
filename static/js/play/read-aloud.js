// Numbers read aloud from recorded clips (issue 22, accommodations): no cloud voice, nothing
// fetched while reading. The clips (games/read_aloud.py, made by scripts/make-number-clips) are
// words: "20", "1", "hundred", "y", "plus"... A number is said as the clips that compose it:
// 21 is "twenty" "one"; in Spanish 31 is "treinta" "y" "uno", and 16-29 are clips of their own
// ("veintiuno"), as the words are.
//
// The page fetches every clip of its language once, at start, and keeps each as a Blob behind an
// object URL: read-aloud then works on with the network cut. The Content-Security-Policy allows
// media from blob: for this (config/settings.py, media-src).
//
//   const reader = new ReadAloud({lang: "en", clips: {"7": "/static/audio/en/7.mp3", ...}});
//   await reader.preload();
//   reader.say("3 + 4 = 7");   // three plus four equals seven
//   reader.say("12 5 17");     // three numbers, with a short pause between them
//
// readAloudControls (at the end) wires the play page's button, R key and "Read new cards".

import { gettext } from "./i18n.js";

const OPERATORS = {
  "+": "plus",
  "-": "minus",
  "−": "minus",
  "×": "times",
  x: "times",
  "*": "times",
  "÷": "divided",
  "/": "divided",
  "=": "equals",
};
const PAUSE_BETWEEN_NUMBERS_MS = 350;

// The clips of a whole number, in a language ("en", "es"). Beyond 999, digit by digit.
export function numberClips(number, lang) {
  if (!Number.isInteger(number)) return [];
  if (number < 0) return ["minus", ...numberClips(-number, lang)];
  if (number >= 1000) return [...String(number)].map((digit) => digit);
  return lang === "es" ? spanish(number) : english(number);
}

function english(n) {
  if (n < 20) return [String(n)];
  if (n < 100) {
    const units = n % 10;
    return units ? [String(n - units), String(units)] : [String(n)];
  }
  const rest = n % 100;
  return [String(Math.floor(n / 100)), "hundred", ...(rest ? english(rest) : [])];
}

function spanish(n) {
  if (n < 30) return [String(n)];
  if (n < 100) {
    const units = n % 10;
    return units ? [String(n - units), "y", String(units)] : [String(n)];
  }
  if (n === 100) return ["100"];
  const rest = n % 100;
  const hundreds = n < 200 ? "ciento" : String(n - rest);
  return [hundreds, ...(rest ? spanish(rest) : [])];
}

// What to say for a text of numbers and operators ("+12", "3 × 4 =", "5 8 13", "+12, −3"): clip
// names, and {pause} between two numbers that follow each other and at a comma.
export function sayClips(text, lang) {
  const tokens = String(text ?? "").match(/\d+|[+\-−×x*÷/=,]/g) || [];
  const items = [];
  let lastWasNumber = false;
  for (const token of tokens) {
    if (token === ",") {
      if (items.length) items.push({ pause: PAUSE_BETWEEN_NUMBERS_MS });
      lastWasNumber = false;
    } else if (/^\d+$/.test(token)) {
      if (lastWasNumber) items.push({ pause: PAUSE_BETWEEN_NUMBERS_MS });
      items.push(...numberClips(Number(token), lang));
      lastWasNumber = true;
    } else {
      items.push(OPERATORS[token]);
      lastWasNumber = false;
    }
  }
  return items;
}

export class ReadAloud {
  // onChange(reader) is called whenever state, preloaded or spoken change (the page shows them).
  constructor({ lang, clips }, { onChange = () => {} } = {}) {
    this.lang = lang;
    this.urls = clips || {};
    this.blobs = new Map(); // clip name -> object URL of its Blob
    this.state = "idle"; // loading, ready, speaking, blocked (autoplay refused), failed
    this.spoken = []; // the clips of the latest reading whose playing ended, in order
    this.history = []; // every clip played: {clip, src}
    this.reading = 0; // a new reading stops the one before
    this.audio = null;
    this.pending = null; // the clip being played: {resolve, reject}
    this.loading = null; // the preloading, once started
    this.loaded = false;
    this.onChange = onChange;
  }

  get preloaded() {
    return this.blobs.size;
  }

  changed(state) {
    if (state) this.state = state;
    try {
      this.onChange(this);
    } catch (error) {
      console.error(error);
    }
  }

  // Fetches every clip once, into Blobs. Resolves when all have been tried; a clip that could
  // not be fetched is played from its address later (while the network is there).
  async preload() {
    if (this.loading) return this.loading;
    this.changed("loading");
    this.loading = Promise.all(
      Object.entries(this.urls).map(async ([name, url]) => {
        try {
          const response = await fetch(url, { credentials: "same-origin" });
          if (!response.ok) throw new Error(`${response.status} for ${url}`);
          this.blobs.set(name, URL.createObjectURL(await response.blob()));
        } catch (error) {
          console.warn("read-aloud: clip not preloaded", name, error);
        }
      }),
    ).then(() => {
      this.loaded = true;
      const all = this.blobs.size === Object.keys(this.urls).length;
      this.changed(this.state === "loading" ? (all ? "ready" : "failed") : null);
    });
    return this.loading;
  }

  source(clip) {
    return this.blobs.get(clip) || this.urls[clip] || null;
  }

  stop() {
    this.reading += 1;
    const pending = this.pending;
    this.pending = null;
    if (this.audio) this.audio.pause();
    if (pending) pending.resolve();
  }

  // One media element for every clip (a tablet's browser lets an element play once a gesture has
  // started it), its events settling the clip being played.
  element() {
    if (this.audio) return this.audio;
    const audio = new Audio();
    audio.preload = "auto";
    audio.addEventListener("ended", () => {
      if (audio.ended) this.settle(null);
    });
    audio.addEventListener("error", () => this.settle(audio.error || new Error("media error")));
    this.audio = audio;
    return audio;
  }

  settle(error) {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return;
    if (error) pending.reject(error);
    else pending.resolve();
  }

  // Plays one clip to its end ("ended"); rejects on a media error or a refused play().
  playOnce(src) {
    const audio = this.element();
    return new Promise((resolve, reject) => {
      const pending = { resolve, reject };
      this.pending = pending;
      audio.src = src;
      const started = audio.play();
      if (started && typeof started.catch === "function") {
        started.catch((error) => {
          if (this.pending === pending) this.settle(error);
        });
      }
    });
  }

  // Says a text of numbers and operators; stops whatever was being said. Resolves when done (or
  // stopped). Needs a user's gesture on the page first (the browsers' autoplay rule): a click or
  // key press does; otherwise the state becomes "blocked" and nothing is said.
  async say(text) {
    const items = sayClips(text, this.lang);
    this.stop();
    const reading = this.reading;
    if (items.length === 0) return;
    // Once the clips are held the first one starts at once, within the child's gesture (a
    // tablet's browser may refuse a play() that comes later).
    if (this.loading && !this.loaded) await this.loading;
    if (reading !== this.reading) return;
    this.spoken = [];
    this.changed("speaking");
    for (const item of items) {
      if (reading !== this.reading) return;
      if (item && item.pause) {
        await new Promise((resolve) => setTimeout(resolve, item.pause));
        continue;
      }
      const src = this.source(item);
      if (!src) continue;
      try {
        await this.playOnce(src);
      } catch (error) {
        if (reading !== this.reading) return;
        console.warn("read-aloud: cannot play", item, error);
        this.changed(error && error.name === "NotAllowedError" ? "blocked" : "failed");
        return;
      }
      if (reading !== this.reading) return;
      this.spoken.push(item);
      this.history.push({ clip: `${this.lang}/${item}`, src });
      this.changed();
    }
    if (reading === this.reading) this.changed("ready");
  }
}

// --- the page's controls ------------------------------------------------------------------------
// The "Read aloud" button (#play-read) reads the card or target of the moment (reading(): the
// renderer's readAloud, {key, text}); R, with the focus on the game table, reads the focused
// number (its data-read), else the same; while "Read new cards" (#play-read-auto) is on, a reading
// with a new key is read by itself (each device remembers the choice). The button's data-state,
// data-preloaded and data-spoken show what the reader does (tests read them).
const READ_KEY = "r";
const AUTO_STORAGE = "play-read-new-cards";

export function readAloudControls(settings, { board, reading }) {
  const button = document.getElementById("play-read");
  const toggle = document.getElementById("play-read-auto");
  const show = (current) => {
    if (!button) return;
    button.dataset.state = current.state;
    button.dataset.preloaded = String(current.preloaded);
    button.dataset.spoken = current.spoken.join(" ");
  };
  const reader = new ReadAloud(settings, { onChange: show });
  let auto = true;
  let lastKey; // undefined until the first drawing

  const readCurrent = () => {
    const now = reading();
    if (now && now.text) reader.say(now.text);
  };
  const readFocused = () => {
    const active = document.activeElement;
    const focused = active && board.contains(active) ? active.closest("[data-read]") : null;
    if (focused && board.contains(focused) && focused.dataset.read) reader.say(focused.dataset.read);
    else readCurrent();
  };
  const paintToggle = () => {
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", String(auto));
    toggle.textContent = auto ? gettext("Read new cards: on") : gettext("Read new cards: off");
  };

  return {
    reader,
    start() {
      try {
        auto = localStorage.getItem(AUTO_STORAGE) !== "off";
      } catch {
        auto = true;
      }
      if (button) button.addEventListener("click", readCurrent);
      if (toggle) {
        toggle.addEventListener("click", () => {
          auto = !auto;
          try {
            localStorage.setItem(AUTO_STORAGE, auto ? "on" : "off");
          } catch {
            // A private window may refuse storage: the choice holds for this page.
          }
          paintToggle();
        });
      }
      paintToggle();
      show(reader);
      reader.preload();
    },
    // A key pressed in the game table (shell.js has already left out fields and modified keys).
    onKey(event) {
      if (event.key.toLowerCase() !== READ_KEY) return false;
      event.preventDefault();
      readFocused();
      return true;
    },
    keysNote() {
      return gettext("R: read aloud");
    },
    // After each drawing of the table: a new card is read by itself. The page's first drawing is
    // not new (the child has not touched the page yet; a browser would refuse to play anyway).
    readNewCard() {
      const now = reading();
      const key = now && now.text ? now.key : null;
      const isNew = key !== null && key !== undefined && key !== lastKey;
      const first = lastKey === undefined;
      lastKey = key;
      if (isNew && !first && auto) reader.say(now.text);
    },
  };
}
