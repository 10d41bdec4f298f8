"""The record of who looked at children's data (docs/privacy.md, "Who looked")."""
