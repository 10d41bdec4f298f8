"""The box: a cgroup that limits the server's CPU (a share of one core, by the CFS quota) and
memory, on cgroup v2 (one hierarchy: cpu.max, memory.max) or v1 (one hierarchy a controller:
cpu.cfs_quota_us over cpu.cfs_period_us, memory.limit_in_bytes), whichever the machine mounts
with both controllers.

The group is made under the group this process is in (v1), or under the nearest group above it
that hands the cpu and memory controllers to its children (v2, whose groups with processes in
them may not): the box's limits then sit within whatever limits hold this process. It needs root.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

CPU_PERIOD_US = 100_000  # the kernel's default CFS period
CONTROLLERS = ("cpu", "memory")


class CgroupError(Exception):
    """The box cannot be made here, in words for the command line."""


@dataclass(frozen=True)
class Limits:
    cpu_percent: float  # of one core
    memory_bytes: int

    @property
    def quota_us(self) -> int:
        return round(CPU_PERIOD_US * self.cpu_percent / 100)


@dataclass(frozen=True)
class Mount:
    root: str  # the hierarchy's path that is mounted
    point: Path


def _mounts(mountinfo: str) -> tuple[dict[str, Mount], Mount | None]:
    """The v1 hierarchies by controller, and the v2 one, from /proc/self/mountinfo."""
    v1: dict[str, Mount] = {}
    v2 = None
    for line in Path(mountinfo).read_text().splitlines():
        fields, _sep, after = line.partition(" - ")
        parts, super_options = fields.split(), after.split()
        if len(parts) < 5 or len(super_options) < 3:
            continue
        mount = Mount(parts[3], Path(parts[4].replace("\\040", " ")))
        if super_options[0] == "cgroup2":
            v2 = mount
        elif super_options[0] == "cgroup":
            for option in super_options[2].split(","):
                if option in CONTROLLERS:
                    v1[option] = mount
    return v1, v2


def _own_groups(proc_cgroup: str) -> tuple[dict[str, str], str | None]:
    """This process's group in each v1 hierarchy (by controller) and in the v2 one."""
    v1: dict[str, str] = {}
    v2 = None
    for line in Path(proc_cgroup).read_text().splitlines():
        hierarchy, controllers, path = line.split(":", 2)
        if hierarchy == "0" and not controllers:
            v2 = path
        for controller in controllers.split(","):
            if controller in CONTROLLERS:
                v1[controller] = path
    return v1, v2


def _on_disk(mount: Mount, group: str) -> Path:
    """Where ``group`` (a path in its hierarchy) is under the mount (which may mount a subtree)."""
    relative = os.path.relpath(group, mount.root)
    if relative.startswith(".."):
        return mount.point
    return (mount.point / relative).resolve() if relative != "." else mount.point


def _lists(path: Path) -> set[str]:
    try:
        return set(path.read_text().split())
    except OSError:
        return set()


def _write(path: Path, value: str) -> None:
    try:
        path.write_text(value)
    except OSError as error:
        raise CgroupError(f"cannot write {value!r} to {path}: {error.strerror}") from None


class Box:
    """A cgroup of its own (``classroom-box-<random>``) with ``limits``. ``create`` makes it,
    ``enter`` (in a child before it executes the server) puts the calling process in it, ``remove``
    takes it away again (moving out any process still in it). Use as a context manager."""

    def __init__(
        self,
        limits: Limits,
        *,
        mountinfo: str = "/proc/self/mountinfo",
        proc_cgroup: str = "/proc/self/cgroup",
    ):
        if not 0 < limits.cpu_percent <= 100 * (os.cpu_count() or 1):
            raise CgroupError(f"a CPU quota of {limits.cpu_percent:g} % is not one this box has")
        if limits.quota_us < 1000:
            raise CgroupError("the CPU quota is at least 1 % of a core (1 ms a 100 ms period)")
        self.limits = limits
        self.name = f"classroom-box-{secrets.token_hex(4)}"
        v1_mounts, v2_mount = _mounts(mountinfo)
        v1_own, v2_own = _own_groups(proc_cgroup)
        if v2_mount is not None and set(CONTROLLERS) <= _lists(
            v2_mount.point / "cgroup.controllers"
        ):
            self.version = 2
            self.parents = {"unified": self._v2_parent(v2_mount, v2_own or "/")}
        elif all(controller in v1_mounts for controller in CONTROLLERS):
            self.version = 1
            self.parents = {
                controller: _on_disk(v1_mounts[controller], v1_own.get(controller, "/"))
                for controller in CONTROLLERS
            }
        else:
            raise CgroupError(
                "no cgroup hierarchy here has the cpu and memory controllers (mounted at "
                "/sys/fs/cgroup: v2, or v1's cpu and memory)"
            )
        # v1: one group in each controller's hierarchy (the same one, where they share one)
        self.groups = {key: parent / self.name for key, parent in self.parents.items()}
        self.made: list[Path] = []

    @staticmethod
    def _v2_parent(mount: Mount, own: str) -> Path:
        """The nearest group at or above this process's whose children get cpu and memory (a
        systemd slice, say); the hierarchy's root otherwise, where they are then enabled."""
        group = _on_disk(mount, own)
        while group != mount.point and mount.point in group.parents:
            if set(CONTROLLERS) <= _lists(group / "cgroup.subtree_control"):
                return group
            group = group.parent
        return mount.point

    # -- the group's files

    def _file(self, controller: str, name: str) -> Path:
        return self.groups["unified" if self.version == 2 else controller] / name

    def _read(self, controller: str, name: str) -> str | None:
        try:
            return self._file(controller, name).read_text().strip()
        except OSError:
            return None

    def create(self) -> None:
        if os.geteuid() != 0:
            raise CgroupError("making a cgroup needs root")
        if self.version == 2:
            root = self.parents["unified"]
            missing = set(CONTROLLERS) - _lists(root / "cgroup.subtree_control")
            if missing:
                _write(root / "cgroup.subtree_control", " ".join(f"+{c}" for c in sorted(missing)))
        for group in dict.fromkeys(self.groups.values()):
            try:
                group.mkdir()
            except OSError as error:
                self.remove()
                raise CgroupError(f"cannot make {group}: {error.strerror}") from None
            self.made.append(group)
        quota, memory = self.limits.quota_us, self.limits.memory_bytes
        try:
            if self.version == 2:
                _write(self._file("cpu", "cpu.max"), f"{quota} {CPU_PERIOD_US}")
                _write(self._file("memory", "memory.max"), str(memory))
            else:
                _write(self._file("cpu", "cpu.cfs_period_us"), str(CPU_PERIOD_US))
                _write(self._file("cpu", "cpu.cfs_quota_us"), str(quota))
                _write(self._file("memory", "memory.limit_in_bytes"), str(memory))
            if self.settings() != (quota, CPU_PERIOD_US, memory):
                raise CgroupError(f"the limits read back as {self.settings()}, not as written")
        except CgroupError:
            self.remove()
            raise

    def settings(self) -> tuple[int | None, int | None, int | None]:
        """The group's CPU quota and period (µs) and memory limit (bytes), as it reads back."""

        def number(text: str | None) -> int | None:
            return int(text) if text and text.lstrip("-").isdigit() else None

        if self.version == 2:
            quota, _sep, period = (self._read("cpu", "cpu.max") or "").partition(" ")
            memory = self._read("memory", "memory.max")
        else:
            quota = self._read("cpu", "cpu.cfs_quota_us")
            period = self._read("cpu", "cpu.cfs_period_us")
            memory = self._read("memory", "memory.limit_in_bytes")
        return number(quota), number(period), number(memory)

    def enter(self) -> None:
        """Puts the calling process in the box (in a child, between fork and exec)."""
        pid = str(os.getpid())
        for group in dict.fromkeys(self.groups.values()):
            (group / "cgroup.procs").write_text(pid)

    def pids(self) -> list[int]:
        found: set[int] = set()
        for group in self.made:
            found |= {int(pid) for pid in _lists(group / "cgroup.procs")}
        return sorted(found)

    def memory_peak(self) -> int | None:
        """The most memory the box held (bytes); None where the kernel does not tell (v2 before
        Linux 5.19)."""
        text = self._read(
            "memory", "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        )
        return int(text) if text and text.isdigit() else None

    def throttling(self) -> tuple[int, int, float] | None:
        """Periods the box ran in, those it was held back in by its quota, and the seconds it
        was held back."""
        stat = {}
        for line in (self._read("cpu", "cpu.stat") or "").splitlines():
            key, _sep, value = line.partition(" ")
            if value.isdigit():
                stat[key] = int(value)
        if "nr_periods" not in stat:
            return None
        held = stat["throttled_usec"] / 1e6 if "throttled_usec" in stat else None
        if held is None:
            held = stat.get("throttled_time", 0) / 1e9  # v1: nanoseconds
        return stat["nr_periods"], stat.get("nr_throttled", 0), held

    def describe(self) -> str:
        quota, period, memory = self.settings()
        groups = ", ".join(str(group) for group in dict.fromkeys(self.groups.values()))
        return (
            f"cgroup v{self.version} {groups}: CPU {quota} µs every {period} µs "
            f"({100 * (quota or 0) / (period or 1):g} % of a core), memory {memory} bytes"
        )

    def remove(self, timeout: float = 10.0) -> None:
        """Removes the group; a process still in it after ``timeout`` (its server did not stop)
        is moved back to this process's own group first."""
        for group in reversed(self.made):
            self._rmdir(group, timeout)
        self.made.clear()

    def _rmdir(self, group: Path, timeout: float) -> None:
        for moved_out in (False, True):
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                try:
                    group.rmdir()
                    return
                except FileNotFoundError:
                    return
                except OSError as error:
                    if error.errno not in (errno.EBUSY, errno.ENOTEMPTY):
                        raise CgroupError(f"cannot remove {group}: {error.strerror}") from None
                time.sleep(0.1)
            if not moved_out:
                self._move_out(group)
        raise CgroupError(
            f"{group} stays busy (processes {sorted(_lists(group / 'cgroup.procs'))})"
        )

    def _move_out(self, group: Path) -> None:
        if self.version == 1:
            home = group.parent  # this process's own group in that hierarchy
        else:
            _v1, own = _own_groups("/proc/self/cgroup")
            _v1_mounts, mount = _mounts("/proc/self/mountinfo")
            home = _on_disk(mount, own or "/")
        for pid in _lists(group / "cgroup.procs"):
            with contextlib.suppress(ProcessLookupError):  # it has just ended
                (home / "cgroup.procs").write_text(pid)

    def __enter__(self) -> Box:
        self.create()
        return self

    def __exit__(self, *exc) -> None:
        self.remove()
