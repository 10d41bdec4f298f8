// Keeps the live part of a teacher's session page (or the projector) fresh. The monitor socket
// (/ws/session/<id>/) says whenever something changes (at most twice a second, and on a regular
// tick) and which tables moved; the page then fetches its server-rendered part again and swaps it
// in, so all the text stays server-translated. A page marked data-live-parts fetches only the
// tables that moved, their students and the help summary (?tables=), and swaps each part for the
// element with the same data-part: a change costs what it touched, not the whole class. Without
// the socket it falls back to a light poll. A page opened before the teacher started another
// round (data-follow-next) goes to that round's page by itself.

import { LiveSocket } from "./live-socket.js";

const region = document.querySelector("[data-live-region]");
if (region) follow(region);

function follow(region) {
  const announce = document.querySelector("[data-announce]");
  const helped = new Set();
  let refused = false;
  let fetching = false;
  // What to fetch once the fetch under way is done: null for nothing, "all", or the tables that
  // moved and the seats that answered ({tables: Set, answered: Set}).
  let queued = null;
  const partsOnly = "liveParts" in region.dataset;
  // The radio buttons a teacher has changed in a form marked data-keep-choices and not yet sent:
  // a refresh puts them back as they were chosen (name -> value), not as the server last saved.
  const chosen = new Map();
  region.addEventListener("change", (event) => {
    const input = event.target;
    if (input.matches("form[data-keep-choices] input[type=radio]")) chosen.set(input.name, input.value);
  });
  region.addEventListener("submit", (event) => {
    if (event.target.matches("form[data-keep-choices]")) chosen.clear();
  });

  const queue = (change) => {
    if (queued === "all" || change === "all" || !partsOnly) queued = "all";
    else {
      queued = queued || { tables: new Set(), answered: new Set() };
      for (const table of change.tables) queued.tables.add(table);
      for (const seat of change.answered) queued.answered.add(seat);
    }
  };

  const refresh = async (change = "all") => {
    if (fetching) {
      queue(change);
      return;
    }
    // Never pull a select away from a teacher who is choosing in it; try again when they leave.
    const focused = document.activeElement;
    if (focused && region.contains(focused) && focused.matches("select, input")) {
      region.addEventListener("focusout", () => setTimeout(() => refresh("all"), 50), { once: true });
      return;
    }
    const parts = partsOnly && change !== "all";
    if (parts && change.tables.size === 0) return;
    fetching = true;
    try {
      const url = parts
        ? `${region.dataset.liveUrl}?tables=${[...change.tables].join(",")}` +
          `&answered=${[...change.answered].join(",")}`
        : region.dataset.liveUrl;
      const response = await fetch(url, {
        credentials: "same-origin",
        headers: { "X-Requested-With": "fetch" },
      });
      if (response.ok) {
        const html = await response.text();
        const focusKey = keyOf(document.activeElement);
        if (!parts) {
          const open = [...region.querySelectorAll("details[data-key][open]")].map(
            (details) => details.dataset.key,
          );
          region.innerHTML = html;
          for (const [name, value] of chosen) {
            const input = region.querySelector(
              `form[data-keep-choices] input[type=radio][name="${CSS.escape(name)}"][value="${CSS.escape(value)}"]`,
            );
            if (input) input.checked = true;
          }
          for (const key of open) {
            const details = region.querySelector(`details[data-key="${CSS.escape(key)}"]`);
            if (details) details.open = true;
          }
        } else if (!swapParts(html)) {
          queue("all"); // a part the page does not have (a new table, say): look at everything
        }
        region.dataset.refreshed = String(Number(region.dataset.refreshed || 0) + 1);
        if (focusKey) region.querySelector(focusKey)?.focus();
        tellWhoNeedsHelp();
      }
    } catch {
      // Offline for a moment: the next message or poll tries again.
    } finally {
      fetching = false;
      if (queued !== null) {
        const next = queued;
        queued = null;
        refresh(next);
      }
    }
  };

  // Each <template data-part> of the answer replaces the element with the same data-part, keeping
  // an open "By skill" list open. False when some part has no place on the page.
  const swapParts = (html) => {
    const holder = document.createElement("template");
    holder.innerHTML = html;
    const parts = holder.content.querySelectorAll("template[data-part]");
    let complete = parts.length > 0; // none: the answer was the whole part (the session changed)
    for (const part of parts) {
      const fresh = part.content.firstElementChild;
      const old = region.querySelector(`[data-part="${CSS.escape(part.dataset.part)}"]`);
      if (!old || !fresh) {
        complete = false;
        continue;
      }
      for (const details of old.querySelectorAll("details[data-key][open]")) {
        fresh.querySelector(`details[data-key="${CSS.escape(details.dataset.key)}"]`)?.setAttribute("open", "");
      }
      old.replaceWith(fresh);
    }
    return complete;
  };

  // Where the keyboard was, as a selector that finds the same control in the new HTML.
  const keyOf = (element) => {
    if (!element || !region.contains(element)) return null;
    if (element.id) return `#${CSS.escape(element.id)}`;
    const details = element.closest("details[data-key]");
    if (details && element.matches("summary")) {
      return `details[data-key="${CSS.escape(details.dataset.key)}"] > summary`;
    }
    const form = element.closest("form[action]");
    if (form) return `form[action="${CSS.escape(form.getAttribute("action"))}"] button`;
    return null;
  };

  // Read off the rows just shown (the server's figures), so the announcement never disagrees
  // with the page.
  const tellWhoNeedsHelp = () => {
    if (!announce || !announce.dataset.helpTemplate) return;
    const names = [];
    const needing = [...region.querySelectorAll("[data-needs-help][data-student]")];
    const now = new Set(needing.map((row) => row.dataset.student));
    for (const row of needing) if (!helped.has(row.dataset.student)) names.push(row.dataset.name);
    for (const id of [...helped]) if (!now.has(id)) helped.delete(id);
    for (const id of now) helped.add(id);
    if (names.length) {
      announce.textContent = names
        .map((name) => announce.dataset.helpTemplate.replace("{name}", name))
        .join(". ");
    }
  };

  // The teacher's own click (their "Play another round" goes to the new round itself): a page on
  // its way elsewhere follows nothing more, or the two navigations would race.
  document.addEventListener("submit", () => delete region.dataset.followNext);

  const socket = new LiveSocket(region.dataset.socket, {
    onMessage: (message) => {
      if (message.type !== "monitor") return;
      // The teacher started another round: a screen opened before it (the projector on the old
      // podium) goes to the new round by itself.
      const next = message.session && message.session.next_round;
      const follow = region.dataset.followNext;
      if (next && follow && next[follow]) {
        delete region.dataset.followNext;
        location.assign(next[follow]);
        return;
      }
      region.dataset.snapshots = String(Number(region.dataset.snapshots || 0) + 1);
      refresh(
        Array.isArray(message.tables)
          ? { tables: new Set(message.tables), answered: new Set(message.answered || []) }
          : "all",
      );
    },
    onStatus: (status, closeCode) => {
      if (status === "connected") region.dataset.connected = "true";
      else delete region.dataset.connected;
      if (closeCode) {
        refused = true; // no more polling either: the live part would answer with a sign-in page
        const notice = document.querySelector(`[data-refused="${closeCode}"]`);
        if (notice) notice.hidden = false;
      }
    },
  });
  // Tests drop the line as a network would, to see what the page does next.
  window.sessionLive = { drop: () => socket.drop() };

  // Without the socket, a light poll keeps the page roughly current.
  setInterval(() => {
    if (!socket.open && !refused) refresh();
  }, 20000);
  socket.connect();
}
