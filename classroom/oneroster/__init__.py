"""OneRoster 1.2 CSV: rosters in (bulk and delta zips), gradebook results out (docs/oneroster.md)."""
