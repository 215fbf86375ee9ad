"""A lock on an output folder, so that two runs never write into the same folder at once.

The lock is an advisory ``flock`` on ``<folder>/.dem.lock``, a small JSON file naming the holder (PID, host,
start time, command line). The kernel drops a flock when its process ends, however it ends (SIGKILL
included), so a lock file left by a dead run is not held by anyone and the next run simply takes it: no
stale lock can block a folder. The file's content only serves the message that names the other run.
"""

from __future__ import annotations

import datetime
import fcntl
import json
import os
import socket
import sys
from pathlib import Path

LOCK_NAME = ".dem.lock"


class FolderLocked(ValueError):
    """Another live process holds the folder's lock."""


class FolderLock:
    """``with FolderLock(folder):`` — hold the lock of `folder` (created if needed) for the block.

    Raises FolderLocked, naming the other process, when another process holds it.
    """

    def __init__(self, folder: Path | str):
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> FolderLock:
        for _ in range(10):
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _describe(self.path)
                os.close(fd)
                raise FolderLocked(f"output folder {self.folder} is in use by another dem run ({holder}); wait for "
                                   "it to finish, stop it, or choose another --out") from None
            # the holder before us may have removed the file between our open and our flock: then we
            # hold a lock on a file no one else will open; start again on the file now at the path
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        else:
            raise FolderLocked(f"could not take the lock {self.path}: it keeps being replaced")
        info = {"pid": os.getpid(), "host": socket.gethostname(),
                "started": datetime.datetime.now().isoformat(timespec="seconds"), "command": " ".join(sys.argv)}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)  # while still holding it: no one can take a file being removed
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


def _describe(path: Path) -> str:
    try:
        info = json.loads(path.read_text())
        return (f"PID {info.get('pid')} on {info.get('host')}, started {info.get('started')}: "
                f"{info.get('command')}")
    except (OSError, ValueError, AttributeError):
        return "a process that has not yet written its name"
