// A student's game sessions, live. The student socket (/ws/student/) sends the open sessions of
// the student's classes whenever the teacher opens, starts or ends one, and "seated" when the
// game starts: then the page goes to the student's table. On the home page the list is redrawn
// (a Join button appears without a reload); on the waiting room page the session is followed.
// Every text comes from the page (server-translated), so this script holds no prose.

const root = document.querySelector("[data-student-sessions]");
if (root) follow(root);

function follow(root) {
  const sessionId = root.dataset.sessionId ? Number(root.dataset.sessionId) : null;
  const announce = root.querySelector("[data-announce]");
  const known = new Set(
    [...root.querySelectorAll("[data-session-list] [data-session-id]")].map((li) =>
      Number(li.dataset.sessionId),
    ),
  );
  let socket = null;
  let delay = 500;
  // Tests drop the line as a network would, to see what the page does next.
  window.studentSessions = { drop: () => socket && socket.close() };

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${root.dataset.socket}`);
    socket.addEventListener("open", () => {
      delay = 500;
      root.dataset.connected = "true";
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "seated") {
        if (sessionId === null || message.session_id === sessionId) {
          location.assign(message.play_url);
        }
      } else if (message.type === "sessions") {
        if (sessionId === null) showList(message.sessions);
        else showOne(message.sessions.find((s) => s.id === sessionId));
      }
    });
    socket.addEventListener("close", (event) => {
      delete root.dataset.connected;
      if (event.code === 4401 || event.code === 4403) {
        // Refused (signed out, or no longer this student's): say so, and stop trying.
        const notice = root.querySelector(`[data-refused="${event.code}"]`);
        if (notice) notice.hidden = false;
        return;
      }
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 5000);
    });
  };

  // The waiting room: go to the table as soon as there is one; say so when the session ends.
  const showOne = (session) => {
    if (session && session.play_url) {
      location.assign(session.play_url);
      return;
    }
    if (!session) {
      for (const el of root.querySelectorAll("[data-waiting]")) el.hidden = true;
      root.querySelector("[data-ended]").hidden = false;
    }
  };

  const showList = (sessions) => {
    const list = root.querySelector("[data-session-list]");
    const template = root.querySelector("template[data-session-item]");
    const focused = document.activeElement;
    const focusedItem = focused && list.contains(focused) && focused.closest("[data-session-id]");
    const focusKey = focusedItem ? [focusedItem.dataset.sessionId, whichControl(focused)] : null;
    const items = sessions.map((session) => {
      const item = template.content.firstElementChild.cloneNode(true);
      item.dataset.sessionId = String(session.id);
      for (const el of item.querySelectorAll("[data-title]")) el.textContent = session.title;
      item.querySelector("[data-join-title]").textContent = ` ${session.title}`;
      item.querySelector("[data-classroom]").textContent = session.classroom;
      const join = item.querySelector("[data-join]");
      join.action = session.join_url;
      join.hidden = session.joined || Boolean(session.play_url);
      const lobby = item.querySelector("[data-lobby]");
      lobby.href = session.lobby_url;
      lobby.hidden = !session.joined || Boolean(session.play_url);
      const play = item.querySelector("[data-play]");
      play.href = session.play_url || "";
      play.hidden = !session.play_url;
      return item;
    });
    list.replaceChildren(...items);
    root.querySelector("[data-empty]").hidden = sessions.length > 0;
    if (focusKey) {
      const again = list.querySelector(`[data-session-id="${focusKey[0]}"] [${focusKey[1]}]`);
      const target = again && (again.matches("form") ? again.querySelector("button") : again);
      if (target && !target.closest("[hidden]")) target.focus();
    }
    const fresh = sessions.filter((s) => !known.has(s.id));
    for (const s of sessions) known.add(s.id);
    if (fresh.length && announce && root.dataset.openedTemplate) {
      announce.textContent = fresh
        .map((s) => root.dataset.openedTemplate.replace("{title}", s.title))
        .join(" ");
    }
    root.dataset.sessionCount = String(sessions.length);
  };

  const whichControl = (el) => {
    for (const name of ["data-join", "data-lobby", "data-play"]) {
      if (el.closest(`[${name}]`)) return name;
    }
    return "data-join";
  };

  // Proxies close quiet sockets; a ping every 20 s keeps this one open.
  setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}');
  }, 20000);
  connect();
}
