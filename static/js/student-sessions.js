// A student's game sessions, live. The student socket (/ws/student/) sends the open sessions of
// the student's classes whenever the teacher opens, starts or ends one, and "seated" when the
// game starts: then the page goes to the student's table. On the home page the list is redrawn
// (a Join button appears without a reload, and goes when the teacher closes the session to
// newcomers); on the waiting room page the session is followed.
// Every text comes from the page (server-translated), so this script holds no prose.

import { LiveSocket } from "./live-socket.js";

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
  const socket = new LiveSocket(root.dataset.socket, {
    onMessage: (message) => {
      if (message.type === "seated") {
        if (sessionId === null || message.session_id === sessionId) {
          location.assign(message.play_url);
        }
      } else if (message.type === "sessions") {
        if (sessionId === null) showList(message.sessions);
        else showOne(message.sessions.find((s) => s.id === sessionId));
      }
    },
    onStatus: (status, closeCode) => {
      if (status === "connected") root.dataset.connected = "true";
      else delete root.dataset.connected;
      if (closeCode) {
        // Refused (signed out, or no longer this student's): say so; the socket stops trying.
        const notice = root.querySelector(`[data-refused="${closeCode}"]`);
        if (notice) notice.hidden = false;
      }
    },
  });
  // Tests drop the line as a network would, to see what the page does next.
  window.studentSessions = { drop: () => socket.drop() };

  // The waiting room: go to the table as soon as there is one; say so when the session ends.
  const showOne = (session) => {
    if (session && session.play_url) {
      location.assign(session.play_url);
      return;
    }
    if (!session) {
      for (const el of root.querySelectorAll("[data-waiting]")) el.hidden = true;
      root.querySelector("[data-ended]").hidden = false;
      return;
    }
    // Not in yet: the teacher may close the session to newcomers (or open it again) meanwhile.
    const join = root.querySelector("[data-join]");
    const locked = root.querySelector("[data-locked]");
    if (join && locked && !session.joined) {
      join.hidden = Boolean(session.locked);
      locked.hidden = !session.locked;
    }
  };

  const showList = (sessions) => {
    // A page that had nothing to show says "No game yet" only while that is so.
    const nothingYet = document.querySelector("[data-nothing-yet]");
    if (nothingYet) nothingYet.hidden = sessions.length > 0;
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
      join.hidden = session.joined || Boolean(session.play_url) || Boolean(session.locked);
      item.querySelector("[data-locked]").hidden =
        session.joined || Boolean(session.play_url) || !session.locked;
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

  socket.connect();
}
