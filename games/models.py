# Match, Seat, MoveRecord and Attempt arrive with live play (see DESIGN.md, "Live play").
