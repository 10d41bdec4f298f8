"""The live session benchmark: ``python -m tools.session_load`` (tools.session_load.live)."""
