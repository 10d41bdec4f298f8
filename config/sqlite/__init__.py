"""The embedded default's database backend (config/sqlite/base.py)."""
