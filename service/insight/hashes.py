"""The (size, sha256) of an input the protocol imports, read once per version of the file.

``warehouse ingest`` hashes every file to tell an unchanged one (52 s for 10 GB); an import
server sees the same files again and again. Each file opened below the import root carries its
identity (device, inode, size, mtime_ns, ctime_ns: :attr:`rooted.Found.identity`): while it
holds, the content is the one hashed before, and the hash is not read again. Any write,
truncation, replacement or ``touch`` changes the identity, so the file is hashed anew.

Concurrent imports of one file share one read: the first hashes, the others wait for its result.
The memory is the process's, cleared when the server restarts (the first import after a
restart reads each file once).
"""

from __future__ import annotations

import hashlib
import os
import threading
from concurrent.futures import Future

from service.insight.rooted import Found, identity

HASH_CHUNK_BYTES = 1 << 20
#: identities remembered; the oldest is forgotten beyond this (an entry is ~200 bytes)
MAX_REMEMBERED = 100_000

_lock = threading.Lock()
_known: dict[tuple, Future] = {}


def size_and_sha256(found: Found) -> tuple[int, str]:
    """The file's (size, sha256), read through its open descriptor unless known for its identity.

    :raises OSError: when the file cannot be read.
    """
    key = found.identity
    with _lock:
        pending = _known.get(key)
        mine = pending is None
        if mine:
            pending = _known[key] = Future()
            while len(_known) > MAX_REMEMBERED:
                del _known[next(iter(_known))]
    if not mine:
        return pending.result()
    try:
        result = _read(found.fd)
    except BaseException as exc:
        _forget(key)
        pending.set_exception(exc)
        raise
    if identity(os.fstat(found.fd)) != key:  # written while it was read: not this version's hash
        _forget(key)
    pending.set_result(result)
    return result


def _forget(key: tuple) -> None:
    with _lock:
        _known.pop(key, None)


def _read(fd: int) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    while chunk := os.pread(fd, HASH_CHUNK_BYTES, size):
        digest.update(chunk)
        size += len(chunk)
    return size, digest.hexdigest()
