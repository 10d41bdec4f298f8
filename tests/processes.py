"""Ending the processes a test starts (a server, a worker): asked to stop, then killed if it
does not within its grace, so no test outlives its timeout waiting on a child."""

import subprocess


def stop(process: subprocess.Popen, grace_seconds: float = 10) -> None:
    process.terminate()
    try:
        process.wait(timeout=grace_seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
