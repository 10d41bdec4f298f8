// A lesson's play page follows the teacher (docs/live-play.md, "Every screen follows the
// teacher"): besides its match socket it listens to the student socket (/ws/student/, given by
// the teaching layer in config.follow), and goes by itself where the teacher sends the child:
// the table of another round, or another table of the same lesson. The teacher's view of a table
// (the projector) listens to the session's monitor socket and goes to the next round's table. The page holds no text of its
// own: the new page says everything.
import { LiveSocket } from "../live-socket.js";

export function followTheTeacher(follow, matchId, { go = (url) => location.assign(url) } = {}) {
  const here = location.pathname;
  let gone = false;
  let sawThisRound = false;
  const goTo = (url) => {
    if (gone || !url || url === here) return;
    gone = true;
    go(url);
  };
  const socket = new LiveSocket(follow.socket, {
    onMessage(message) {
      if (message.type === "seated") goTo(message.play_url);
      else if (message.type === "monitor") {
        // The teacher's view of a table: the same table of the next round, once it has started
        // (a view opened on an old round after the next one began stays: looked at on purpose).
        const next = message.session && message.session.next_round;
        if (!next) sawThisRound = true;
        else if (sawThisRound && next.watch) goTo(next.watch[String(matchId)]);
      }
      else if (message.type === "sessions" && Array.isArray(message.sessions)) {
        const mine = message.sessions.find((s) => s.id === follow.session_id);
        if (mine) goTo(mine.play_url);
        else {
          // This lesson has ended; a "seated" lost while the line was down is caught up here:
          // a later session of the class where the child has a table is the next round.
          const next = message.sessions.find((s) => s.id > follow.session_id && s.play_url);
          if (next) goTo(next.play_url);
        }
      }
    },
  });
  socket.connect();
  return socket;
}
