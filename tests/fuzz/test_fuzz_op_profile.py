"""Fuzz the operator profile ``visualize_data.bin`` through the real ingest frame.

From the factory's file of all 15 block types: truncations at every block boundary (and
inside headers, paths and payloads), flipped bytes, hostile bytes spliced in, a huge or
off-by-some declared contentSize (up to 2^64 - 1: never allocated), a wrong type,
padding or version byte, and any JSON block's document with a wrong-typed, deeply
nested or enormous value at any path or a key removed (the file re-framed around it).
"""

from __future__ import annotations

import functools
import gzip
import json
import struct
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories.op_profile import HEADER, PATH_BYTES, Block, OpProfileFactory, every_block
from fuzz.harness import RAW, RAW_TEXTS, byte_mutations, document_mutations, examples, ingest_hostile, json_paths, replace_at

NAME = "visualize_data.bin"
DECLARED_SIZES = (0, 1, 3, 2**31, 2**32, 2**40, 2**60, 2**63, 2**64 - 1)


@functools.cache
def _original():
    """The factory's file (written once: the strategies need the same bytes every example)."""
    with tempfile.TemporaryDirectory() as tmp:
        written = OpProfileFactory(path=Path(tmp) / NAME)
        return written.data, tuple(written.offsets), tuple(written.blocks)


def _boundaries(data, offsets, blocks):
    """Every block start, the end of each header and of each 0x01 path: where a cut write stops."""
    cuts = {len(data)}
    for offset, block in zip(offsets, blocks):
        cuts |= {offset, offset + HEADER.size}
        if block.path is not None:
            cuts.add(offset + HEADER.size + PATH_BYTES)
    return cuts


def header_mutations(data, offsets) -> st.SearchStrategy[bytes]:
    """One block header with a hostile contentSize, type, padding or version byte."""
    def patch(t):
        offset, field, value = t
        size, block_type, padding, version, tag = HEADER.unpack_from(data, offset)
        fields = {"size": size, "type": block_type, "padding": padding, "version": version, "tag": tag}
        fields[field] = value if field == "size" else value % 256
        return data[:offset] + HEADER.pack(*fields.values()) + data[offset + HEADER.size:]

    sizes = st.tuples(st.sampled_from(offsets), st.just("size"),
                      st.one_of(st.sampled_from(DECLARED_SIZES), st.integers(0, 2**64 - 1)))
    bytes_ = st.tuples(st.sampled_from(offsets), st.sampled_from(["type", "padding", "version", "tag"]),
                       st.one_of(st.sampled_from([0, 4, 0x10, 0x5A, 0xFF]), st.integers(0, 255)))
    return st.one_of(sizes, bytes_).map(patch)


def json_block_mutations(blocks) -> st.SearchStrategy[bytes]:
    """The file re-framed with one JSON block's document mangled (see harness.document_mutations)."""
    json_blocks = [i for i, block in enumerate(blocks) if block.doc is not None]

    def reframed(index):
        block = blocks[index]

        def serialize(doc, raw=""):
            payload = json.dumps(doc, ensure_ascii=False)
            if raw:
                payload = payload.replace(json.dumps(RAW, ensure_ascii=False), raw, 1)
            mangled = Block(block.type, payload.encode("utf-8", "surrogatepass"), block.version, block.path)
            return b"".join((mangled if i == index else b).to_bytes() for i, b in enumerate(blocks))

        return document_mutations(block.doc, serialize)

    return st.sampled_from(json_blocks).flatmap(reframed)


@pytest.mark.slow
@examples(150)
@given(data=st.data())
def test_hostile_op_profile_ends_cleanly(data):
    """A mangled bin ends as a clear failure naming the block's byte offset, or a sound ingest."""
    original, offsets, blocks = _original()
    mangled = data.draw(st.one_of(
        byte_mutations(original, _boundaries(original, offsets, blocks)),
        header_mutations(original, offsets),
        json_block_mutations(blocks),
    ))
    ingest_hostile(NAME, mangled)


@pytest.mark.parametrize("size", DECLARED_SIZES[3:])
def test_a_huge_declared_length_fails_at_its_block_without_allocating(size):
    """contentSize of 2^31..2^64-1 on the third block: a failure naming that block's offset."""
    original, offsets, _ = _original()
    offset = offsets[2]
    _, block_type, padding, version, tag = HEADER.unpack_from(original, offset)
    mangled = original[:offset] + HEADER.pack(size, block_type, padding, version, tag) + original[offset + HEADER.size:]
    result = ingest_hostile(NAME, mangled)
    assert result.status == "failed"
    assert f"byte {offset}" in result.error, result.error


@pytest.mark.slow  # a sweep: every case in turn (the fast tier keeps the hypothesis test)
@pytest.mark.parametrize("cut", sorted(set(range(0, 200)) | {HEADER.size + PATH_BYTES - 1}))
def test_truncations_of_the_first_blocks_end_cleanly(cut):
    """Every cut inside the first header, the first path and the first payload."""
    original, _, _ = _original()
    ingest_hostile(NAME, original[:cut])


@pytest.mark.parametrize("block_type", sorted({b.type for b in every_block() if b.doc is not None}))
def test_deep_nesting_and_enormous_strings_in_every_json_block_end_cleanly(block_type):
    """Each raw hostile JSON text at the deepest value of each JSON block type."""
    _, _, blocks = _original()
    index = next(i for i, b in enumerate(blocks) if b.type == block_type)
    block = blocks[index]
    deepest = max(json_paths(block.doc), key=len)
    for raw in RAW_TEXTS:
        payload = json.dumps(replace_at(block.doc, deepest, RAW)).replace(json.dumps(RAW), raw, 1).encode()
        mangled = Block(block.type, payload, block.version, block.path)
        ingest_hostile(NAME, b"".join((mangled if i == index else b).to_bytes() for i, b in enumerate(blocks)))


@pytest.mark.parametrize("count", [2**32 - 1, 2**60, 2**64 - 1])
def test_a_huge_memory_record_count_fails_at_its_block_without_allocating(count):
    """0x0A's u64 record count far past its payload: a failure naming the block, nothing allocated for it."""
    _, _, blocks = _original()
    index = next(i for i, b in enumerate(blocks) if b.type == 0x0A)
    block = blocks[index]
    mangled = Block(block.type, struct.pack("<Q", count) + block.payload[8:], block.version, block.path)
    data = b"".join((mangled if i == index else b).to_bytes() for i, b in enumerate(blocks))
    offset = sum(len(b.to_bytes()) for b in blocks[:index])
    result = ingest_hostile(NAME, data)
    assert result.status == "failed"
    assert f"block at byte {offset} (type 0x0a): memory records: {count} records need" in result.error, result.error


def test_an_integer_past_64_bits_in_a_json_block_fails_naming_the_block_and_column():
    """A 2^64 cell in the memory table (0x09): SQLite cannot hold it; the reason says where."""
    _, offsets, blocks = _original()
    index = next(i for i, b in enumerate(blocks) if b.type == 0x09)
    block = blocks[index]
    doc = replace_at(block.doc, ("table_per_block", 0, "table_detail", 0, "row", 0, "value", 3), 2**64)
    mangled = Block(block.type, json.dumps(doc).encode(), block.version, block.path)
    result = ingest_hostile(NAME, b"".join((mangled if i == index else b).to_bytes() for i, b in enumerate(blocks)))
    assert result.status == "failed"
    assert f"block at byte {offsets[index]}: memory_table.value: {2**64} is past 64-bit integers" in result.error, \
        result.error


@examples(30)
@given(cut=st.integers(0, 10**6), mask=st.integers(0, 255))
def test_a_damaged_gzip_bin_ends_cleanly(cut, mask):
    """A gzip-compressed bin cut short, or with one byte flipped (CRC, deflate stream, header)."""
    data = gzip.compress(_original()[0], mtime=0)
    cut %= len(data)
    mangled = data[:cut] if not mask else data[:cut] + bytes([data[cut] ^ mask]) + data[cut + 1:]
    ingest_hostile(NAME + ".gz", mangled)
