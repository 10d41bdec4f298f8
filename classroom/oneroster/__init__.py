"""OneRoster 1.2 CSV: rosters in (bulk and delta zips), gradebook results out.

See docs/oneroster.md."""
