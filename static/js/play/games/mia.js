// ¡Mía!: the table modes (express, party, canada47; docs/rules/mia.md) and the solo square
// (solo5/4/3; docs/rules/mia_solo.md). A view with `size` is the solo square. This module is the
// renderer the play page loads (its API: static/js/play/shell.js); the table and the square are
// drawn by mia/table-mode.js and mia/solo-square.js.
import { gettext, ngettext } from "../i18n.js";
import { say, who } from "../table.js";
import { closedText, equation, optionShown, optionText, wrongWhy } from "./mia/faces.js";
import { renderSolo } from "./mia/solo-square.js";
import { renderTable, tableShortcut } from "./mia/table-mode.js";

export function keyShortcut(event, view) {
  if (view.size || !view.hand) return false;
  return tableShortcut(event, view);
}

export function keysNote(view) {
  if (view.size || !view.hand) return null;
  return gettext("1–9: your cards · A, B: claim that target (¡Mía!) · P: pass");
}

// Read aloud: the card to solve (a new one is read by itself), or in the square the chosen card.
export function readAloud(view, ctx) {
  if (view.size) {
    const cell = ctx.ui.cell ? view.square[ctx.ui.cell[0]][ctx.ui.cell[1]] : null;
    return cell ? { key: null, text: cell.options.map(optionText).join(", ") } : null;
  }
  const top = view.top;
  if (!top || !top.options) return null;
  return { key: `top-${top.id}`, text: top.options.map(optionText).join(", ") };
}

export function render(root, view, ctx) {
  if (view.size) renderSolo(root, view, ctx);
  else renderTable(root, view, ctx);
}

export function scores(view) {
  // The solo square's column counts solved cards from start to end; its stars are the result's.
  if (view.size) return [view.cleared];
  return view.scores;
}

export function scoreHeading(view) {
  return view.size ? gettext("Cards solved") : null;
}

export function result(view, ctx) {
  if (!view.size) return null;
  if (view.result === "won") {
    return say(
      ngettext(
        "You cleared the square! %(stars)s star.",
        "You cleared the square! %(stars)s stars.",
        view.stars,
      ),
      { stars: view.stars },
    );
  }
  return ctx.spectator
    ? gettext("The square was not cleared this time.")
    : gettext("The deck ran out before the square was cleared. Try again!");
}

// A claim that lost the race for a card is still the child's answer (docs/rules/mia.md): its
// attempt, which only the claimant receives, says whether it was right; the public late_claim
// that follows it is the moment to tell them, on their own screen only, kindly.
function lateClaimMessage(event, ctx) {
  const answer = ctx.ui.lateAnswer;
  ctx.ui.lateAnswer = null;
  const won = ctx.ui.wonBy && ctx.ui.wonBy.round === event.round ? ctx.ui.wonBy.seat : null;
  const quicker = won === null ? null : ctx.seatName(won);
  if (answer && !answer.correct) {
    const why = wrongWhy(answer.operands, answer.operator, answer.expected, answer.answer);
    return quicker
      ? say(gettext("Not quite: %(why)s. %(name)s took that card."), { why, name: quicker })
      : say(gettext("Not quite: %(why)s. Someone else took that card."), { why });
  }
  return quicker
    ? say(gettext("Right! %(name)s was quicker this time."), { name: quicker })
    : gettext("Right! Someone else was quicker this time.");
}

// The card closed: who got it right is on the board (the view's last_closed); the child whose
// own answer was wrong is told why, on their screen only (their attempt, which only they receive).
function cardClosedMessage(event, ctx) {
  const answer = ctx.ui.calmAnswer;
  ctx.ui.calmAnswer = null;
  ctx.ui.closedRound = event.round;
  ctx.ui.feedback = null; // what was said of an earlier card is over
  const right = closedText(event.right, ctx);
  if (answer && !answer.correct) {
    const why = wrongWhy(answer.operands, answer.operator, answer.expected, answer.answer);
    ctx.ui.feedback = say(gettext("Not quite: %(why)s. Those two cards wait one round."), { why });
    return `${ctx.ui.feedback} ${right}`;
  }
  return right;
}

export function describe(event, ctx) {
  const name = event.seat === undefined || event.seat === null ? "" : who(event.seat, ctx);
  switch (event.type) {
    case "attempt":
      if (ctx.isMe(event.seat) && event.scored === false) ctx.ui.lateAnswer = event;
      if (ctx.isMe(event.seat) && event.calm) ctx.ui.calmAnswer = event;
      return null;
    case "answered":
      // A calm table: the others learn only that a player is done with the card.
      if (ctx.isMe(event.seat)) {
        // Only a claim has an attempt (which came just before): without one, the child passed.
        return ctx.ui.calmAnswer
          ? gettext("You answered. Waiting for the others…")
          : gettext("You passed. Waiting for the others…");
      }
      return say(gettext("%(name)s answered."), { name });
    case "card_closed":
      return cardClosedMessage(event, ctx);
    case "late_claim": {
      // The others are not told: the late claimant's cards stay unseen, and a table of children
      // need not hear who was slower.
      if (!ctx.isMe(event.seat)) return null;
      const message = lateClaimMessage(event, ctx);
      ctx.ui.feedback = message;
      return message;
    }
    case "timed_out":
      return ctx.isMe(event.seat) ? gettext("Time is up for that card. Have a go at the next one!") : null;
    case "claim_won": {
      ctx.ui.wonBy = { round: event.round, seat: event.seat };
      const message = say(
        ngettext(
          "%(name)s: %(equation)s. ¡Mía! %(count)s card won.",
          "%(name)s: %(equation)s. ¡Mía! %(count)s cards won.",
          event.cards_taken,
        ),
        { name, equation: equation(event.values, event.op, event.target), count: event.cards_taken },
      );
      if (ctx.isMe(event.seat)) ctx.ui.feedback = null;
      return message;
    }
    case "wrong_claim": {
      const why = wrongWhy(event.values, event.op, event.result, event.target);
      if (ctx.isMe(event.seat)) {
        ctx.ui.feedback = say(gettext("Not this time: %(why)s. Those two cards wait one round."), { why });
      }
      return say(gettext("%(name)s claimed wrongly: %(why)s."), { name, why });
    }
    case "passed":
      return say(gettext("%(name)s passed."), { name });
    case "extra_time":
      if (event.until === null) {
        return say(gettext("%(name)s swapped an Extra time card for a new card."), { name });
      }
      return say(gettext("%(name)s played Extra time."), { name });
    case "extra_time_over":
      return gettext("Extra time is over: everybody may claim again.");
    case "nobody_solved":
      return gettext("Nobody solved it: a new card goes on the pile.");
    case "revealed": {
      const card = event.card || {};
      if (card.kind === "recycling") {
        return gettext("Recycling! Everyone takes 2 cards from the player on their right.");
      }
      if (card.kind === "twister") return gettext("Twister! Everyone passes their hand to the right.");
      if (card.kind === "mirror") return gettext("Mirror! On the next card solved, + and − swap.");
      if (!card.options) return null;
      // At a calm table the news of the card that just closed stays on the board.
      if (ctx.ui.closedRound !== event.round - 1) ctx.ui.feedback = null;
      return say(gettext("New card: %(first)s or %(second)s."), {
        first: optionShown(card.options[0]),
        second: optionShown(card.options[1]),
      });
    }
    case "cards_returned":
      return say(gettext("%(name)s got the set-aside cards back."), { name });
    case "numbers_reshuffled":
      return gettext("The used number cards were shuffled into a new deck.");
    case "solved": {
      ctx.ui.feedback = null;
      const option = event.card.options[event.option];
      return say(
        ngettext(
          "Solved: %(equation)s! %(left)s card left.",
          "Solved: %(equation)s! %(left)s cards left.",
          event.left,
        ),
        {
          equation: equation(
            event.numbers.map((c) => c.value),
            option.op,
            option.target,
          ),
          left: event.left,
        },
      );
    }
    case "wrong_solve": {
      const why = wrongWhy(event.numbers.map((c) => c.value), event.op, event.result, event.target);
      ctx.ui.feedback = say(gettext("Not quite: %(why)s. Try another pair."), { why });
      return say(gettext("Not quite: %(why)s."), { why });
    }
    case "swapped":
      return say(
        ngettext(
          "Two cards swapped (%(swaps)s swap so far).",
          "Two cards swapped (%(swaps)s swaps so far).",
          event.swaps,
        ),
        { swaps: event.swaps },
      );
    case "cards_opened":
      return gettext("New cards are open.");
    default:
      return null;
  }
}
