"""tools.classroom_box, run as an operator runs it (a process of its own on a SQLite file of its
own): the embedded server really runs inside a cgroup of a quarter of one core and 1 GB (read
back, while it runs, from /proc/<pid>/cgroup and the group's own files), a tiny class signs in,
plays with the teacher's monitor and projector open, the figures are printed with nothing lost,
and the cgroup is gone afterwards, after Ctrl-C too.

Making a cgroup needs root and a cgroup file system with the cpu and memory controllers; CI runs
as root on such a machine, so without them these tests fail, they do not skip."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import copy_database, embedded_environment

ROOT = Path(__file__).resolve().parents[2]
SERVER_LINE = re.compile(r"server pid (\d+) on \S+, in the box: (.+)")


@pytest.fixture
def root_with_cgroups():
    mounts = Path("/proc/self/mounts").read_text()
    if os.geteuid() != 0 or not re.search(r" cgroup2? ", mounts):
        pytest.fail("this test makes a cgroup: it needs root and a cgroup file system")


class Tool:
    """The tool's process, its output read line by line as it comes (every wait bounded)."""

    def __init__(self, args: list[str], environment: dict[str, str]):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tools.classroom_box", *args],
            cwd=ROOT,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, pattern: re.Pattern, timeout: float) -> re.Match:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if found := pattern.search(line):
                return found
        self.process.kill()
        pytest.fail(f"no line matching {pattern.pattern} within {timeout} s:\n{self.output()}")

    def finish(self, timeout: float) -> int:
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
            pytest.fail(f"the tool did not end within {timeout} s:\n{self.output()}")
        return code

    def output(self) -> str:
        while True:
            try:
                line = self.lines.get(timeout=5)
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
        return "".join(self.seen)


def groups_of(pid: int) -> dict[str, str]:
    """A process's group in each hierarchy: controller -> path (v2: "" -> path)."""
    groups = {}
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _hierarchy, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            groups[controller] = path
    return groups


def box_files(pid: int) -> tuple[dict[str, Path], dict[str, str]]:
    """The box's directories (by controller) and its limits, read while the server runs in it."""
    groups = groups_of(pid)
    if "classroom-box-" in groups.get("cpu", ""):
        cpu = Path("/sys/fs/cgroup/cpu", groups["cpu"].lstrip("/"))
        memory = Path("/sys/fs/cgroup/memory", groups["memory"].lstrip("/"))
        limits = {
            "cpu": f"{(cpu / 'cpu.cfs_quota_us').read_text().strip()} "
            f"{(cpu / 'cpu.cfs_period_us').read_text().strip()}",
            "memory": (memory / "memory.limit_in_bytes").read_text().strip(),
        }
        return {"cpu": cpu, "memory": memory}, limits
    unified = Path("/sys/fs/cgroup", groups[""].lstrip("/"))
    limits = {
        "cpu": (unified / "cpu.max").read_text().strip(),
        "memory": (unified / "memory.max").read_text().strip(),
    }
    return {"cpu": unified, "memory": unified}, limits


def start_tool(tmp_path, migrated_database, args) -> tuple[Tool, int, dict[str, Path]]:
    database = tmp_path / "box.sqlite3"
    copy_database(migrated_database, database)
    tool = Tool(args, embedded_environment(database))
    server = tool.wait_for(SERVER_LINE, timeout=420)
    pid = int(server[1])
    assert "classroom-box-" in server[2], tool.output()
    directories, limits = box_files(pid)
    # A quarter of one core (25 ms of CPU every 100 ms) and 1 GB.
    assert limits == {"cpu": "25000 100000", "memory": str(2**30)}, limits
    assert str(pid) in (directories["cpu"] / "cgroup.procs").read_text().split()
    assert str(pid) in (directories["memory"] / "cgroup.procs").read_text().split()
    return tool, pid, directories


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/status").read_text().find("State:\tZ") >= 0


# The server starts under a quarter of a core: Django's imports take four times as long.
@pytest.mark.embedded
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_tiny_class_plays_in_the_box_and_nothing_is_lost(
    tmp_path, migrated_database, root_with_cgroups
):
    args = ["--students", "6", "--rate", "3", "--duration", "5", "--arrival", "2"]
    tool, _pid, directories = start_tool(tmp_path, migrated_database, args)
    code = tool.finish(timeout=420)
    out = tool.output()
    assert code == 0, out
    assert "sign-in: 6 of 6 seated" in out
    assert "refused 0, errors 0" in out
    assert re.search(r"move to the mover's socket: p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+", out)
    assert "lost 0, out of order 0, unanswered 0" in out
    assert re.search(r"move to the teacher's monitor: p50 \d+ ms, .*never shown 0", out), out
    assert re.search(r"monitor live part: [1-9]\d* fetches, .* failed 0", out), out
    assert re.search(r"projector live part: [1-9]\d* fetches, .* failed 0", out), out
    for page in ("session page, lobby", "Start", "session page, playing", "projector page"):
        assert re.search(rf"{re.escape(page)}.*: median \d+ ms", out), out
    peak = re.search(r"memory peak: (\d+) MB of 1024 MB", out)
    assert peak and int(peak[1]) > 0, out
    assert "targets: p99 under 50 ms" in out
    for directory in directories.values():
        assert not directory.exists(), f"{directory} is left behind"


@pytest.mark.embedded
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_ctrl_c_stops_the_server_and_removes_the_box(
    tmp_path, migrated_database, root_with_cgroups
):
    args = ["--students", "6", "--arrival", "60"]
    tool, pid, directories = start_tool(tmp_path, migrated_database, args)
    tool.process.send_signal(signal.SIGINT)
    code = tool.finish(timeout=120)
    out = tool.output()
    assert code == 130, out
    assert gone(pid), out
    for directory in directories.values():
        assert not directory.exists(), f"{directory} is left behind:\n{out}"


@pytest.mark.embedded
def test_on_cgroup_v2_the_box_is_made_under_the_group_that_hands_out_cpu_and_memory(
    tmp_path, root_with_cgroups
):
    """Operators' machines mount cgroup v2 alone: the box is then one group with cpu.max and
    memory.max, made under the nearest group above this process's whose children get both
    controllers (a systemd slice). A file tree laid out as such a machine's stands in for it."""
    from tools.classroom_box.cgroup import Box, Limits

    root = tmp_path / "cgroup"
    slice_ = root / "user.slice"
    scope = slice_ / "session-1.scope"
    scope.mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (root / "cgroup.subtree_control").write_text("cpu io memory pids\n")
    (slice_ / "cgroup.subtree_control").write_text("cpu memory pids\n")
    (scope / "cgroup.subtree_control").write_text("\n")
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(
        f"30 24 0:26 / {root} rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
        f"31 24 0:27 / /sys/fs/cgroup/unused rw - cgroup cgroup rw,freezer\n"
    )
    own = tmp_path / "own-cgroup"
    own.write_text("0::/user.slice/session-1.scope\n")
    box = Box(Limits(25, 2**30), mountinfo=str(mountinfo), proc_cgroup=str(own))
    assert box.version == 2
    assert box.groups == {"unified": slice_ / box.name}
    box.create()
    assert (slice_ / box.name / "cpu.max").read_text() == "25000 100000"
    assert (slice_ / box.name / "memory.max").read_text() == str(2**30)
    assert box.settings() == (25000, 100000, 2**30)
