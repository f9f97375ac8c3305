"""The hot-spot commands: source/code/file, source/api/line, source/api/instructions.

Files are looked up in the warehouse (``code_file``, the profile's 0x01 blocks) by the path
the profile records, or by its last components; nothing on disk is ever opened, so a
``sourceName`` such as ``../../etc/passwd`` can only miss.
"""

from __future__ import annotations

import json

from service.insight import cards
from service.insight.protocol import InsightError, Params, one, rows

INSTRUCTIONS_BLOCK = 0x04


def _file(conn, source_id: int, name: str) -> dict:
    """The code_file row ``name`` designates: its exact path, else the one path ending in ``/name``.

    :raises InsightError: if none or several match.
    """
    found = rows(conn, "insight_code_file", source_id=source_id, source_name=name)
    if not found:
        raise InsightError(f"no source file {name!r} in the profile")
    if not found[0]["exact"] and len(found) > 1:
        raise InsightError(f"several source files end with {name!r}: {', '.join(r['path'] for r in found)}")
    return found[0]


def code_file(conn, params: Params) -> dict:
    """The text of one source file of the profile."""
    source_id = cards.operator(conn, params)
    content = _file(conn, source_id, params.text("sourceName"))["content"]
    if isinstance(content, bytes):
        content = content.decode("utf-8", errors="replace")
    return {"fileContent": content or ""}


def api_line(conn, params: Params) -> dict:
    """The per-line figures of one file on one core, with the extra columns the profile declares."""
    source_id = cards.operator(conn, params)
    name, core = params.text("sourceName"), params.text("coreName")
    cores = [row["core"] for row in rows(conn, "insight_cores", source_id=source_id)]
    if core not in cores:
        raise InsightError(f"unknown core {core!r} (the profile has: {', '.join(cores) or 'none'})")
    lines = rows(conn, "insight_code_lines", source_id=source_id, file=name, core=core)
    if not lines:  # the name may be the end of the path: the profile's source files say which
        name = _file(conn, source_id, name)["path"]
        lines = rows(conn, "insight_code_lines", source_id=source_id, file=name, core=core)
    extras: dict[int, dict] = {}
    for metric in rows(conn, "insight_code_line_metrics", source_id=source_id, file=name, core=core):
        extras.setdefault(metric["code_line_id"], {})[metric["name"]] = metric["value"]
    return {"lines": [{
        "Line": line["line"],
        "Instructions Executed": line["instructions_executed"],
        "Cycles": line["cycles"],
        "Address Range": json.loads(line["address_range"]) if line["address_range"] else [],
        **extras.get(line["code_line_id"], {}),
    } for line in lines]}


def api_instructions(conn, params: Params) -> dict:
    """The instructions part of api.json (block 0x04) as the JSON text the profile holds."""
    source_id = cards.operator(conn, params)
    block = one(conn, "insight_block_json", source_id=source_id, block_type=INSTRUCTIONS_BLOCK)
    if block is None:
        raise InsightError("the profile has no instructions block (0x04)")
    return {"instructions": block["json"]}
