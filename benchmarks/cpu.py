"""CPU time of a whole browser: every thread of every process Chromium started, summed.

On one core, wall time also holds whatever else the machine ran on that core and the moments the
browser sat waiting; CPU time counts only the browser's own work. The kernel keeps it per thread
in nanoseconds (``/proc/PID/task/TID/schedstat``, its first field), so a short visit is counted
exactly, not in the 10 ms ticks of ``/proc/PID/stat``. Linux only; elsewhere ``BrowserCPU.find``
returns None and the benchmarks leave the CPU columns out.
"""

from __future__ import annotations

from pathlib import Path

PROC = Path("/proc")


def _parent(pid: int) -> int | None:
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")"
    return int(stat.rsplit(")", 1)[1].split()[1])


def _command_line(pid: int) -> str:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _thread_seconds(pid: int) -> float:
    total = 0
    for task in (PROC / str(pid) / "task").glob("*"):
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # the thread ended between the listing and the read
    return total / 1e9


class BrowserCPU:
    """The CPU seconds a browser's process tree has used so far, from its root process's pid."""

    def __init__(self, root: int) -> None:
        self.root = root

    @classmethod
    def find(cls, profile: str | Path) -> BrowserCPU | None:
        """The browser launched on the profile folder ``profile`` (``--user-data-dir``): its root is
        the process whose command line names the folder and whose parent's does not."""
        if not (PROC / "self" / "schedstat").exists():
            return None
        mark = f"--user-data-dir={profile}"
        for entry in PROC.iterdir():
            if entry.name.isdigit() and mark in _command_line(int(entry.name)):
                parent = _parent(int(entry.name))
                if parent is None or mark not in _command_line(parent):
                    return cls(int(entry.name))
        return None

    def processes(self) -> list[int]:
        children: dict[int, list[int]] = {}
        for entry in PROC.iterdir():
            if entry.name.isdigit() and (parent := _parent(int(entry.name))) is not None:
                children.setdefault(parent, []).append(int(entry.name))
        found, stack = [], [self.root]
        while stack:
            pid = stack.pop()
            found.append(pid)
            stack.extend(children.get(pid, []))
        return found

    def seconds(self) -> float:
        """CPU seconds used so far by the browser's processes that are still running (a process
        that ended takes its time with it: measure across spans in which none does)."""
        return sum(_thread_seconds(pid) for pid in self.processes())
