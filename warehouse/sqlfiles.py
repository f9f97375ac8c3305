"""The SQL files the package runs: read once, split one way, one header grammar (issue 22).

Every ``.sql`` file the package executes (named queries, audits, the model's and the
sources' statements, migrations) is read through :func:`text` (cached: a file is read
once while it is unchanged, not on every call) and, when it holds several statements, split by
:func:`statements` (each complete per ``sqlite3.complete_statement``, comment-only
chunks dropped), so the statements can run one by one inside the caller's transaction
(``executescript`` would commit it first).

**The header grammar.** A file starts with ``--`` comment lines. A line ``-- key: value``
whose key is one of :data:`KEYS` is a field (a line indented after the dashes continues the
previous field); any other line is prose, the file's description. The keys:

- ``title``, ``description``, ``param``, ``column``: a named query's catalog entry
  (``queries/<view>/<name>.sql``, read by :mod:`warehouse.queries`).
- ``reads``: the input tables a source statement needs; it is skipped when one is absent.
- ``each``: run the file once per ``TABLE[:kind]`` listed, ``{INPUT}`` / ``{input}`` /
  ``{kind}`` replaced (one statement serves input tables of the same shape).
- ``for each table with column``: an audit run once per table having that column.
- ``examples``: how many of an audit's violating rows ``warehouse check`` shows (in the audit's
  own order: an audit that ends with ORDER BY shows its worst rows first).

Inside a query's body (and the rank db source's statements, stage 1's kernels), a line
``-- include: _name`` is replaced by the body of the helper file ``_name.sql`` of the same
folder tree, and for a named query of the model's views folder too (:func:`expand_includes`):
one fragment written once for the files that share it.
"""

from __future__ import annotations

import re
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

#: the keys followed by a colon; ``param NAME (...)`` and ``column NAME`` name their subject first
KEYS = ("title", "description", "reads", "each", "for each table with column", "examples")
NAMED_KEYS = ("param", "column")
FIELD_LINE = re.compile(rf"^(?:({'|'.join(re.escape(k) for k in KEYS)}):|({'|'.join(NAMED_KEYS)})\s)\s*(.*)$")
INCLUDE_LINE = re.compile(r"^[ \t]*-- include: (_[a-z0-9_]+)[ \t]*$", re.MULTILINE)


class SqlFileError(ValueError):
    """A SQL file cannot be read or its header or includes are malformed (the message names it)."""


def text(path: Path) -> str:
    """The file's text, read once while it is unchanged (a stat per call, not a read)."""
    try:
        stat = Path(path).stat()
        return _read(Path(path), stat.st_mtime_ns, stat.st_size)
    except (OSError, UnicodeDecodeError) as exc:
        raise SqlFileError(f"{path}: cannot read ({exc})") from None


def statements(path: Path) -> tuple[str, ...]:
    """The file's statements, in order (see :func:`split`)."""
    return split(text(path))


@lru_cache(maxsize=256)
def _read(path: Path, mtime_ns: int, size: int) -> str:
    return path.read_text(encoding="utf-8")


@lru_cache(maxsize=512)
def split(script: str) -> tuple[str, ...]:
    """The statements of a SQL script, each complete per ``sqlite3.complete_statement``;
    chunks holding only comments are dropped (cached by the script's text)."""
    found, current = [], []
    for line in script.splitlines(keepends=True):
        current.append(line)
        chunk = "".join(current)
        if sqlite3.complete_statement(chunk):
            if any(part.strip() and not part.lstrip().startswith("--") for part in current):
                found.append(chunk.strip())
            current = []
    return tuple(found)


def header_lines(script: str) -> list[str]:
    """The leading comment lines, without their ``--`` (and one space after it)."""
    lines = []
    for line in script.splitlines():
        if not line.startswith("--"):
            break
        lines.append(line[3:] if line.startswith("-- ") else line[2:])
    return lines


def body(script: str) -> str:
    """What follows the leading comment lines."""
    lines = script.splitlines()
    return "\n".join(lines[len(header_lines(script)):]).strip()


class Field(NamedTuple):
    """One header field: its first line's number in the file, its key ('' for prose), its value."""

    line: int
    key: str
    value: str


def fields(script: str) -> list[Field]:
    """The header's fields in order; prose lines come with the key ``''``.

    An indented line continues the field (or prose) before it.

    :raises SqlFileError: on a continuation line before any field.
    """
    items: list[list] = []
    for number, line in enumerate(header_lines(script), start=1):
        if not line.strip():
            continue
        if line.startswith((" ", "\t")):
            if not items:
                raise SqlFileError(f"header line {number}: continuation line before any field")
            items[-1][2] += " " + line.strip()
        elif match := FIELD_LINE.match(line):
            items.append([number, match[1] or match[2], match[3].strip()])
        else:
            items.append([number, "", line.strip()])
    return [Field(*item) for item in items]


def field(script: str, key: str) -> list[str]:
    """The words of the first ``key`` field (``reads``, ``each``), or ``[]`` without one."""
    for item in fields(script):
        if item.key == key:
            return item.value.split()
    return []


def expand_includes(sql: str, root: Path | tuple[Path, ...], seen: tuple[str, ...] = ()) -> str:
    """``sql`` with each ``-- include: _name`` line replaced by the body of ``_name.sql``
    (in a folder of ``root``, or ``root`` itself; ``root`` may be several folders, searched all:
    the named queries include the model's fragments too), recursively.

    :raises SqlFileError: naming the helper, if it is missing, ambiguous or includes itself.
    """
    roots = tuple(Path(folder) for folder in (root if isinstance(root, tuple) else (root,)))

    def replace(match: re.Match) -> str:
        name = match[1]
        if name in seen:
            raise SqlFileError(f"include {name} includes itself ({' -> '.join(seen + (name,))})")
        found = sorted({path for folder in roots
                        for path in (*folder.glob(f"*/{name}.sql"), *folder.glob(f"{name}.sql"))})
        if len(found) != 1:
            where = "no file" if not found else f"{len(found)} files"
            raise SqlFileError(f"include {name}: {where} named {name}.sql under {', '.join(map(str, roots))}")
        return expand_includes(body(text(found[0])), root, seen + (name,))

    return INCLUDE_LINE.sub(replace, sql)
