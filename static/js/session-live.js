// Keeps the live part of a teacher's session page (or the projector) fresh. The monitor socket
// (/ws/session/<id>/) sends a snapshot whenever something changes (at most twice a second) and on
// a regular tick; the page then fetches its server-rendered part again and swaps it in, so all
// the text stays server-translated. Without the socket it falls back to a light poll.

const region = document.querySelector("[data-live-region]");
if (region) follow(region);

function follow(region) {
  const announce = document.querySelector("[data-announce]");
  const helped = new Set();
  let socket = null;
  let delay = 500;
  let refused = false;
  // Tests drop the line as a network would, to see what the page does next.
  window.sessionLive = { drop: () => socket && socket.close() };
  let fetching = false;
  let again = false;

  const refresh = async () => {
    if (fetching) {
      again = true;
      return;
    }
    // Never pull a select away from a teacher who is choosing in it; try again when they leave.
    const focused = document.activeElement;
    if (focused && region.contains(focused) && focused.matches("select, input")) {
      region.addEventListener("focusout", () => setTimeout(refresh, 50), { once: true });
      return;
    }
    fetching = true;
    try {
      const response = await fetch(region.dataset.liveUrl, {
        credentials: "same-origin",
        headers: { "X-Requested-With": "fetch" },
      });
      if (response.ok) {
        const html = await response.text();
        const focusKey = keyOf(document.activeElement);
        const open = [...region.querySelectorAll("details[data-key][open]")].map(
          (details) => details.dataset.key,
        );
        region.innerHTML = html;
        region.dataset.refreshed = String(Number(region.dataset.refreshed || 0) + 1);
        for (const key of open) {
          const details = region.querySelector(`details[data-key="${CSS.escape(key)}"]`);
          if (details) details.open = true;
        }
        if (focusKey) region.querySelector(focusKey)?.focus();
      }
    } catch {
      // Offline for a moment: the next message or poll tries again.
    } finally {
      fetching = false;
      if (again) {
        again = false;
        refresh();
      }
    }
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

  const tellWhoNeedsHelp = (snapshot) => {
    if (!announce || !announce.dataset.helpTemplate) return;
    const names = [];
    const needing = snapshot.needs_help || [];
    const now = new Set(needing.map((student) => student.id));
    for (const student of needing) if (!helped.has(student.id)) names.push(student.name);
    for (const id of [...helped]) if (!now.has(id)) helped.delete(id);
    for (const id of now) helped.add(id);
    if (names.length) {
      announce.textContent = names
        .map((name) => announce.dataset.helpTemplate.replace("{name}", name))
        .join(". ");
    }
  };

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${region.dataset.socket}`);
    socket.addEventListener("open", () => {
      delay = 500;
      region.dataset.connected = "true";
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type !== "monitor") return;
      region.dataset.snapshots = String(Number(region.dataset.snapshots || 0) + 1);
      tellWhoNeedsHelp(message);
      refresh();
    });
    socket.addEventListener("close", (event) => {
      delete region.dataset.connected;
      if (event.code === 4401 || event.code === 4403) {
        refused = true; // no more polling either: the live part would answer with a sign-in page
        const notice = document.querySelector(`[data-refused="${event.code}"]`);
        if (notice) notice.hidden = false;
        return;
      }
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 5000);
    });
  };

  setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}');
    else if (!refused) refresh();
  }, 20000);
  connect();
}
