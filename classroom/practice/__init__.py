"""What each child practises next: the working set of facts (issue 25, item 1)."""
