"""The benchmark of personal practice (``python -m tools.practice_bench``; docs/capacity.md,
"Personal practice against class-wide homework", gives the figures and how to read them).

A simulated class does the same amount of homework two ways:

- *class-wide*, as today: every child is dealt the same deals (the same seeds), unfocused;
- *personal*: each child's deals are focused (``Game.new(..., focus=...)``) on that child's
  working set of the day (``classroom.practice.working_set.working_set_for_games``: each game's
  set among the facts it can deal, as personal practice asks), replayed from the child's own
  answers so far, and the games of the day are the product's plan for that child
  (``classroom.practice.services.plan_items``: shared among the games by the facts each can
  still teach the child).

A day's homework is a fixed number of answers per child, the same both ways: deals of ¡Mía! 3 x 3
solo puzzles from the product's puzzle maker, whose solution lines are claimed, SUM against an
easy bot and Add or Multiply? to 10 against two, played out by the engine's easy bots, the child at
seat 0, the opponents told the child's focus as the product tells them; the facts the child
claims are the child's questions. Class-wide, the deals are ``HOMEWORK`` in turn (two puzzles,
SUM, Add or Multiply?); personal, the child's plan.
The learner model (``learner``) answers them (right or wrong, in how many milliseconds), and
each answer on a table fact goes back as a ``FactAnswer``, so tomorrow's working set follows.

Two figures, over the month (20 school days):

- *focus share*: the share of a child's answers on that day's working-set facts (exactly the
  fact, as the working set counts it), both ways;
- *answers to mastery*: the class's answers until 80 % of (child, fact) pairs are Mastered by
  the product's own rule (``classroom.progress.mastery``), over the table facts the homework
  deals can steer at all (the others are in no deck: see docs/capacity.md). If the class is not
  there after the month, the days go on up to a cap (180 school days, a school year); a figure
  with ">" was not reached by then. The same line over each table alone is printed above it.

With ``--drill`` a third way runs beside them: the personal way's sets, each day's answers the
set's facts in turn with no game (a flash-card drill): the ceiling of what the games' focus could
give, to tell what the set's rules hold back from what the games' deals do.

The class: children of abilities spread evenly, each having met each fact before the month a
number of times that falls with the fact's place in the product's family order; everyone
answers every fact once the week before (the check the working set starts from). Everything
is seeded: one seed, the same output.
"""
