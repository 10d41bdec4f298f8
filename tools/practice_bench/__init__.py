"""The benchmark of personal practice (``python -m tools.practice_bench``; docs/capacity.md,
"Personal practice against class-wide homework", gives the figures and how to read them).

A simulated class gives the same number of answers a day (40) four ways, through the same three
games (¡Mía! 3 x 3 solo puzzles, SUM against a bot, Add or Multiply? with numbers to 10 against
two bots), or none:

- *personal*: the product's personal practice, as if set every day: each child's working set for
  the allowed games (``classroom.practice.working_set.working_set_for_games``), their plan
  (``classroom.practice.services.set_plan``) and each item's match as the product makes it when
  the child opens it (``services.plan_match_args``);
- *rotation*, no planner: every table fact in a shuffled rotation of the child's own. Each day's
  plan is its next facts, for each game as many as a working set holds, made and dealt by the
  same product functions as the personal way's (``set_plan`` and ``plan_match_args``: the games
  get the same share of the items, each item is focused on the facts not yet answered that day);
  then those facts go to the back, answered or not. It differs from personal practice only in
  having no boxes, no reviews and no order but the shuffle;
- *drill*: the personal way's plan answered as flash cards, no game: the ceiling of what the
  games' deals could give;
- *class-wide*: homework as a teacher sets it for the class in the same games, each assignment's
  deals drawn from its own seed by the product (``classroom.homework.services.items_for``), the
  same deals for every child, each child playing their own match.

The children (``play``) make a child's moves, not a bot's, and their answers are recorded as the
engine records them (an attempt's operands, its time from the moment the decision began, and
whether the game's times measure recall: ¡Mía!'s do not). Each answer on a table fact goes back
as a ``FactAnswer``, so tomorrow's set follows. A child's memory is one of two models of a child
(``--models``), kept apart from the product so that it is never tuned to them:

- ``act-r`` (``learner``): ACT-R activation with Pavlik & Anderson's spacing mechanism, counting
  when recall fails;
- ``hlr`` (``hlr``): Half-Life Regression (Settles & Meeder 2016), each child with their own speed.

Three figures per model and seed: the class's answers until 80 % of the (child, fact) pairs over
the 221 table facts are Mastered by the product's own rule (``classroom.progress.mastery``), each
way (``>N``: not reached in the school year, 180 school days); the share of a child's answers on
that day's working-set facts over the first month (*focus share*); and where the answers went
(facts not in the tables, a set fact again the same day, facts already mastered; each game's
share of the answers and how many of its answers are no table fact). The class:
children of abilities spread evenly, who met each fact before a number of times that falls with
the fact's place in the product's family order, and answered each once the week before (the
check the working set starts from). Everything is seeded: the same seed, the same figures.
"""
