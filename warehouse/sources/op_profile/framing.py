"""The framing of visualize_data.bin: a sequence of 12-byte headers, each followed by its payload.

Header (little-endian, ``#pragma pack(4)``): ``u64 contentSize | u8 type | u8 padding |
u8 version | u8 0x5a``. ``padding`` zero bytes (0-3) end the content and are counted in
contentSize. Type 0x01 has a 4096-byte NUL-terminated path between header and content
that is not counted. See reference/FORMATS.md and REAL_FILES.md section 2.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

HEADER = struct.Struct("<QBBBB")
#: byte 11 of every header
TAG = 0x5A
#: byte 10: the default version, and the new-style 0x04 one
VERSIONS = (0x5A, 0)
SOURCE_TYPE = 0x01
PATH_BYTES = 4096


class BlockError(Exception):
    """A malformed block; ``offset`` and ``block_type`` say where (set by whoever knows them)."""

    def __init__(self, reason: str, offset: int | None = None, block_type: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.offset = offset
        self.block_type = block_type

    def place(self) -> str:
        kind = "" if self.block_type is None else f" (type 0x{self.block_type:02x})"
        return f"block at byte {self.offset}{kind}"


@dataclass
class Block:
    """One framed block: where it is, what its header says, and its payload (padding removed).

    The payload is a view into the file's bytes, so framing copies nothing; :meth:`text`
    copies one block when it is decoded.
    """

    index: int
    offset: int
    type: int
    content_size: int
    padding: int
    version: int
    payload: memoryview
    #: the 4096-byte path field of a 0x01 block, else None
    path: bytes | None = None

    def text(self, start: int = 0) -> str:
        """The payload from byte ``start`` as UTF-8, trailing NULs dropped.

        :raises UnicodeDecodeError: when it is not UTF-8.
        """
        return bytes(self.payload[start:]).rstrip(b"\0").decode("utf-8")


def looks_like_op_profile(head: bytes) -> bool:
    """True when ``head`` starts with a plausible first header (the reader's CheckOperatorBinary, plus sanity)."""
    if len(head) < HEADER.size:
        return False
    size, block_type, padding, version, tag = HEADER.unpack_from(head)
    return size != 0 and tag == TAG and version in VERSIONS and block_type != 0 and padding <= 3


def split_blocks(data: bytes) -> list[Block]:
    """Every block of ``data`` in file order (payloads are views into ``data``).

    :raises BlockError: for a truncated header, a bad tag, a padding larger than the content,
        a 0x01 block shorter than its path, or content running past the end of the file.
    """
    blocks = []
    offset = 0
    end = len(data)
    view = memoryview(data)
    while offset < end:
        if end - offset < HEADER.size:
            raise BlockError(f"truncated header: {end - offset} bytes left, a header has {HEADER.size}", offset)
        size, block_type, padding, version, tag = HEADER.unpack_from(data, offset)
        if tag != TAG:
            raise BlockError(f"bad tag 0x{tag:02x} at byte {offset + 11} (expected 0x5a)", offset, block_type)
        if padding > size:
            raise BlockError(f"padding {padding} exceeds contentSize {size}", offset, block_type)
        start = offset + HEADER.size
        path = None
        if block_type == SOURCE_TYPE:
            if end - start < PATH_BYTES:
                raise BlockError(
                    f"source block shorter than its {PATH_BYTES}-byte path ({end - start} bytes left)",
                    offset, block_type)
            path = bytes(view[start:start + PATH_BYTES])
            start += PATH_BYTES
        if size > end - start:
            raise BlockError(
                f"contentSize {size} runs past the end of the file ({end - start} bytes left)", offset, block_type)
        payload = view[start:start + size - padding]
        blocks.append(Block(len(blocks), offset, block_type, size, padding, version, payload, path))
        offset = start + size
    return blocks
