"""Ending the processes a tool or a test starts (servers, workers, nginx): asked to stop all at
once, then each killed if it does not within its grace, so nothing waits for ever on a child."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable


def stop(
    processes: subprocess.Popen | Iterable[subprocess.Popen], grace_seconds: float = 10
) -> None:
    processes = [processes] if isinstance(processes, subprocess.Popen) else list(processes)
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=grace_seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
