"""Write a small, realistic operator profile (``visualize_data.bin``, seed 000) for the demo.

:func:`frame_block` is the block framing of reference/FORMATS.md: a 12-byte little-endian
header ``u64 contentSize | u8 type | u8 padding | u8 version | u8 0x5a``, for type 0x01 a
4096-byte NUL-filled path that contentSize does not count, then the payload and
``padding`` zero bytes (to a multiple of 4) that contentSize does count.
"""

from __future__ import annotations

import json
import random
import struct
from pathlib import Path

HEADER = struct.Struct("<QBBBB")
PATH_BYTES = 4096
TAG = 0x5A
CORES = ["core0.cubecore0", "core0.veccore0", "core0.veccore1"]
KERNEL_PATH = "/home/op/matmul_leakyrelu_custom.cpp"
KERNEL_LINES = 24


def frame_block(block_type: int, payload: bytes, *, version: int = TAG, path: str | None = None) -> bytes:
    """One block's bytes: header, (0x01) path, payload, padding."""
    padding = (4 - len(payload) % 4) % 4
    header = HEADER.pack(len(payload) + padding, block_type, padding, version, TAG)
    path_bytes = path.encode("utf-8").ljust(PATH_BYTES, b"\0") if path is not None else b""
    return header + path_bytes + payload + b"\0" * padding


def write_op_profile(path: str | Path, *, name: str = "MatmulLeakyrelu_mix_aic", seed: int = 0) -> Path:
    """Write a profile of one mix operator: source, per-line and per-instruction hot spots,
    base info, roofline and its simulated timeline. Returns ``path``."""
    rng = random.Random(seed)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    source = "".join(f"    // step {n}: {'Mmad(c, a, b);' if n % 6 == 3 else 'DataCopy(x, y, len);'}\n"
                     for n in range(KERNEL_LINES))
    cycles = [[rng.randint(0, 4000) if n % 6 == 3 else rng.randint(0, 300) for _ in CORES] for n in range(KERNEL_LINES)]
    blocks = [
        frame_block(0x01, source.encode(), path=KERNEL_PATH),
        _json_block(0x02, _trace(rng)),
        _json_block(0x03, {"Cores": CORES, "Files Dtype": {"Lines": {"Line": 1, "Cycles": 1, "Instructions Executed": 1,
                                                                      "Address Range": 0}},
                           "Files": [{"Source": KERNEL_PATH, "Lines": [
                               {"Line": n + 1, "Cycles": cycles[n], "Instructions Executed": [c // 7 for c in cycles[n]],
                                "Address Range": [[hex(0x1000 + 16 * n), hex(0x1010 + 16 * n)]]}
                               for n in range(KERNEL_LINES)]}]}),
        _json_block(0x04, {"Cores": CORES, "Instructions": [
            {"Address": hex(0x1000 + 16 * n), "Source": "MMAD" if n % 6 == 3 else "MOV_UB_TO_L1", "Pipe":
             "CUBE" if n % 6 == 3 else "MTE2", "Cycles": cycles[n], "Instructions Executed": [1] * len(CORES),
             "TheoreticalStallCycles": [0] * len(CORES), "RealStallCycles": [c // 10 for c in cycles[n]],
             "AscendC Inner Code": f"{KERNEL_PATH}:{n + 1}", "L2Cache Hit Rate": [90.0] * len(CORES)}
            for n in range(KERNEL_LINES)]}, version=0),
        _json_block(0x05, {"name": name, "soc": "Ascend910B4", "op_type": "mix", "block_dim": "1",
                           "mix_block_dim": "2", "duration": 300.066, "device_id": "0", "pid": "1112422",
                           "mix_block_detail": {"head_name": ["Block ID", "Cube0 Duration (μs)",
                                                              "Vector0 Duration (μs)", "Vector1 Duration (μs)"],
                                                "row": [{"value": ["0", "250.377579", "133.206055", "247.620605"]}],
                                                "size": [2, 4]},
                           "advice": ["vector0 waits for cube0 most of the time"]}),
        _json_block(0x0D, {"multiple_rooflines": [{"title": "Memory Unit", "rooflines": [
            {"bw": 1600.0, "bw_name": "GM", "computility": 320.0, "computility_name": "Cube FP16",
             "point": [12.5, 100.25]},
            {"bw": 800.0, "bw_name": "L2", "computility": 160.0, "computility_name": "Vector FP32",
             "point": [3.0, 40.0]}]}]}),
    ]
    path.write_bytes(b"".join(blocks))
    return path


def _json_block(block_type: int, document, *, version: int = TAG) -> bytes:
    return frame_block(block_type, json.dumps(document, ensure_ascii=False).encode("utf-8"), version=version)


def _trace(rng: random.Random) -> dict:
    events = [{"ph": "M", "name": "process_name", "pid": core, "tid": 0, "args": {"name": core}} for core in CORES]
    for core in CORES:
        clock = 0
        for n in range(40):
            dur = rng.randint(200, 2000)
            events.append({"ph": "X", "pid": core, "tid": "MTE2" if n % 2 else "CUBE", "name": f"instr{n}",
                           "ts": clock, "dur": dur})
            clock += dur + rng.randint(0, 300)
    return {"profilingType": "op", "displayTimeUnit": "ns", "schemaVersion": 1, "traceEvents": events}
