"""Paths below the import root, resolved and opened without a race.

A path is walked one component at a time from an open descriptor of the root, each component
opened with ``O_NOFOLLOW`` relative to the descriptor of the folder above it (``openat``): what
is checked is what is opened, so a folder swapped for a symlink while the walk runs is met as
a symlink, never followed blindly. A symlink met on the way is followed only within the root:
its target is walked again the same way, and a target outside the root (absolute, or ``..``
above the root) ends the walk. The file found stays open, and so do the folders on its way
(:class:`Found`): the import hashes the file through its descriptor, and the sources, which open
their input by its path, keep their rows only if nothing pinned changed while they read
(:meth:`Found.unchanged`, checked before the rows are committed). That check relies on the folders'
mtime and ctime: on file systems with coarse timestamps (before Linux 6.13's fine-grained ones for
ext4, xfs, btrfs and tmpfs) a swap undone within one clock tick of the folder's previous change
could pass it; a swap still in place when the check runs never does (the path is walked again).

Whatever the reason a path is refused (outside the root, missing, unreadable, not a file or a
folder), the caller learns only that: :class:`NotBelow` carries the path as the client gave it,
so a refusal neither tells which paths exist elsewhere nor names the root.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

#: symlinks followed in one walk before it stops (the kernel's own limit, MAXSYMLINKS)
MAX_LINKS = 40
#: O_PATH: a component is looked at without opening it for reading (a FIFO or device is never opened)
LOOK = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC
READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class NotBelow(Exception):
    """``given`` is not a readable file or folder below the import root (why is not said)."""

    def __init__(self, given: str):
        super().__init__(f"{given}: not a readable file or folder below the import root")
        self.given = given


@dataclass
class Found:
    """A file or folder below the root, open for reading, with the folders on its way pinned.

    ``relative`` is its real path below the root (symlinks resolved); ``fd`` the open
    descriptor, ``status`` its ``fstat``; ``pins`` descriptors of the root, every folder on the
    way and the file, with their ``fstat`` at the open.
    """

    relative: PurePosixPath
    fd: int
    status: os.stat_result
    pins: list[tuple[int, os.stat_result]]

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.status.st_mode)

    @property
    def identity(self) -> tuple[int, int, int, int, int]:
        """(device, inode, size, mtime_ns, ctime_ns): any write, truncation, replacement or
        metadata change of the file changes it."""
        return identity(self.status)

    def unchanged(self) -> bool:
        """Whether the root, every folder on the way and the file are as they were at the open.

        Replacing a folder on the way (renaming it away, a symlink in its place) changes the entries of
        the folder above, hence its mtime; renaming it back changes its own ctime: so a path read
        again by its text between the open and this check read what was opened, or this is False.
        """
        return all(identity(os.fstat(fd)) == identity(before) for fd, before in self.pins)

    def close(self) -> None:
        os.close(self.fd)
        for fd, _ in self.pins:
            os.close(fd)


def identity(status: os.stat_result) -> tuple[int, int, int, int, int]:
    """(device, inode, size, mtime_ns, ctime_ns) of an ``fstat``."""
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns


def relative_to_root(root: Path, given: str) -> str:
    """``given`` as a refusal may name it: relative to ``root`` when it lies below the root's text."""
    path = PurePosixPath(given)
    if path.is_absolute() and path.is_relative_to(root):
        return str(path.relative_to(root))
    return given or "."


def open_below(root: Path, given: str) -> Found:
    """Open the file or folder ``given`` (absolute, or relative to ``root``) names below ``root``.

    :raises NotBelow: if it is outside the root, missing, unreadable, or neither a file nor a folder.
    """
    shown = relative_to_root(root, given)
    path = PurePosixPath(given)
    if "\0" in given:
        raise NotBelow(shown)
    if path.is_absolute():
        if not path.is_relative_to(root):
            raise NotBelow(shown)
        path = path.relative_to(root)
    root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    chain = [_Step("", root_fd, os.fstat(root_fd))]
    try:
        _walk(root, chain, list(path.parts), shown)
        return _reopen(chain, shown)
    except BaseException:
        for step in chain:
            os.close(step.fd)
        raise


@dataclass
class _Step:
    """A component walked into: its name, an O_PATH descriptor and its ``fstat`` taken at the open."""

    name: str
    fd: int
    status: os.stat_result


def _walk(root: Path, chain: list[_Step], pending: list[str], shown: str) -> None:
    """Follow ``pending`` from the root (``chain[0]``), each component appended to ``chain``."""
    links = 0
    pending.reverse()
    while pending:
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":
            if len(chain) == 1:
                raise NotBelow(shown)  # above the root
            os.close(chain.pop().fd)
            continue
        here = chain[-1].fd
        try:
            fd = os.open(name, LOOK, dir_fd=here)
        except OSError:
            raise NotBelow(shown) from None
        status = os.fstat(fd)
        if not stat.S_ISLNK(status.st_mode):
            chain.append(_Step(name, fd, status))  # a file named as a folder fails at the next open (ENOTDIR)
            continue
        links += 1
        try:
            target = PurePosixPath(os.readlink(name, dir_fd=here))
        finally:
            os.close(fd)
        if links > MAX_LINKS or (target.is_absolute() and not target.is_relative_to(root)):
            raise NotBelow(shown)
        if target.is_absolute():  # walked again from the root, as the client's own path is
            while len(chain) > 1:
                os.close(chain.pop().fd)
            target = target.relative_to(root)
        pending.extend(reversed(target.parts))


def _reopen(chain: list[_Step], shown: str) -> Found:
    """The walk's last component opened for reading, checked to be the one the walk looked at."""
    pins = [(step.fd, step.status) for step in chain]
    last = chain[-1]
    if len(chain) == 1:
        return Found(PurePosixPath("."), os.dup(last.fd), last.status, pins)
    if not (stat.S_ISREG(last.status.st_mode) or stat.S_ISDIR(last.status.st_mode)):
        raise NotBelow(shown)  # a FIFO, socket or device is never opened
    try:
        # the O_PATH descriptor of the folder above cannot read; it anchors the lookup only
        fd = os.open(last.name, READ, dir_fd=chain[-2].fd)
    except OSError:
        raise NotBelow(shown) from None
    opened = os.fstat(fd)
    if (opened.st_dev, opened.st_ino) != (last.status.st_dev, last.status.st_ino):
        os.close(fd)
        raise NotBelow(shown)  # replaced between the look and the open
    return Found(PurePosixPath(*(step.name for step in chain[1:])), fd, opened, pins)


def files_below(root: Path, found: Found, given: str, *, skip_folders: str) -> Iterator[PurePosixPath]:
    """The regular files below the folder ``found``, relative to ``root``, in a stable order
    (a folder's files, then its folders', by name), as :func:`warehouse.ingest.discover` lists them.

    Symlinked folders are not walked into (as ``os.walk`` does not); a symlinked file is
    followed within the root. Folders whose name starts with ``skip_folders`` are left out.

    :raises NotBelow: naming ``given`` if a symlink below leads outside the root.
    """
    names = sorted(os.listdir(found.fd))
    folders = []
    for name in names:
        try:
            entry = os.stat(name, dir_fd=found.fd, follow_symlinks=False)
        except OSError:
            continue  # gone since the listing
        if stat.S_ISDIR(entry.st_mode):
            if not name.startswith(skip_folders):
                folders.append(name)
        elif stat.S_ISLNK(entry.st_mode):
            try:
                inner = open_below(root, str(found.relative / name))
            except NotBelow:
                raise NotBelow(given) from None
            try:
                if not inner.is_dir:
                    yield inner.relative
            finally:
                inner.close()
        elif stat.S_ISREG(entry.st_mode):
            yield found.relative / name
    for name in folders:
        try:
            inner = open_below(root, str(found.relative / name))
        except NotBelow:
            raise NotBelow(given) from None
        try:
            if inner.is_dir:
                yield from files_below(root, inner, given, skip_folders=skip_folders)
        finally:
            inner.close()
