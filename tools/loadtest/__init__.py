"""The load test of live play: ``python -m tools.loadtest`` (cli), its driver, its servers and
the ¡Mía! claim race (docs/capacity.md)."""
