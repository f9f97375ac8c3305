"""import/action, files/get and the project check against a hostile import root: a folder swapped
for a symlink never yields a file outside the root (opened without a race, checked after the read),
refusals name neither the root nor what exists elsewhere, and an unchanged file is not read again."""

from __future__ import annotations

import os
import threading

import pytest

from factories.trace_json import EventFactory, TraceFileFactory
from service import create_app
from service.insight import rooted
from warehouse import db

SECRET = "outside_secret_op"
REFUSED = "not a readable file or folder below the import root"


def ask(client, command: str, params: dict) -> dict:
    response = client.post("/api/v1/insight", json={"id": 1, "moduleName": "timeline", "type": "request",
                                                   "command": command, "params": params})
    assert response.status_code == 200
    return response.json


def names(database) -> set[str]:
    conn = db.connect(database)
    try:
        return {row[0] for row in conn.execute("SELECT DISTINCT name FROM slice")}
    finally:
        conn.close()


@pytest.fixture
def layout(tmp_path):
    """root/run/trace.json (inside), outside/run/trace.json (a secret), an empty warehouse, the client."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    TraceFileFactory(path=root / "run" / "trace.json", events=[EventFactory(name="inside_op")])
    TraceFileFactory(path=outside / "run" / "trace.json", events=[EventFactory(name=SECRET)])
    database = tmp_path / "served.db"
    db.connect(database).close()
    client = create_app({"TESTING": True, "DATABASE": str(database), "IMPORT_ROOT": str(root)}).test_client()
    return {"root": root, "outside": outside, "database": database, "client": client}


# ---- case 8: a folder swapped for a symlink -----------------------------------------------------


def _swap(root, outside):
    """run/ becomes a symlink to the outside folder (the old folder kept beside, as an attacker would)."""
    (root / "run").rename(root / "run.old")
    (root / "run").symlink_to(outside / "run")


def test_a_symlinked_folder_on_the_way_is_refused(layout):
    _swap(layout["root"], layout["outside"])
    answer = ask(layout["client"], "import/action", {"path": ["run/trace.json"]})
    assert (answer["result"], answer["error"]["message"]) == (False, f"run/trace.json: {REFUSED}")
    assert names(layout["database"]) == set()


def _open_by_this_process(path) -> bool:
    """Whether this process holds ``path`` open (its descriptors, as /proc/self/fd names them)."""
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") == str(path):
                return True
        except OSError:
            pass
    return False


def test_a_folder_swapped_while_the_import_reads_another_file_is_never_followed(layout):
    """import/action of run/ lists run/a.json and run/sub/b.json; while it reads a.json (a thread sees
    it open), run/sub becomes a symlink to an outside folder: b.json is not read from there."""
    root, outside = layout["root"], layout["outside"]
    TraceFileFactory(path=root / "run" / "a.json", events=[EventFactory(name="a_op", args={"pad": "x" * (16 << 20)})])
    TraceFileFactory(path=root / "run" / "sub" / "b.json", events=[EventFactory(name="b_op")])
    TraceFileFactory(path=outside / "sub" / "b.json", events=[EventFactory(name=SECRET)])
    swapped = threading.Event()

    def swapper():
        for _ in range(200_000):  # bounded: about a minute of looking
            if _open_by_this_process(root / "run" / "a.json"):
                (root / "run" / "sub").rename(root / "run" / "sub.old")
                (root / "run" / "sub").symlink_to(outside / "sub")
                swapped.set()
                return

    thread = threading.Thread(target=swapper)
    thread.start()
    answer = ask(layout["client"], "import/action", {"path": ["run"]})
    thread.join(timeout=120)
    assert swapped.is_set()
    assert SECRET not in names(layout["database"])
    b = next(r for r in answer["body"]["result"] if r["cardPath"].endswith("b.json"))
    assert b["result"] is False


@pytest.mark.parametrize("swap_back", (False, True))
def test_a_folder_swapped_after_the_open_is_seen(layout, swap_back):
    """The walk pinned the folders it opened: a swap after it, even one undone before the check,
    changes what the check compares (the folder above's mtime, the renamed folder's ctime)."""
    root = layout["root"]
    found = rooted.open_below(root, "run/trace.json")
    try:
        assert found.unchanged() and found.relative.as_posix() == "run/trace.json"
        _swap(root, layout["outside"])
        if swap_back:
            (root / "run").unlink()
            (root / "run.old").rename(root / "run")
        assert not found.unchanged()
    finally:
        found.close()


@pytest.mark.slow
def test_swapping_a_folder_in_a_loop_never_ingests_an_outside_file(layout):
    """A thread swaps run/ for a symlink to the outside folder and back as fast as it can while
    import/action runs 150 times on a file rewritten each time (so that it is read each time)."""
    root, client, database = layout["root"], layout["client"], layout["database"]
    stop = threading.Event()

    def swapper():
        while not stop.is_set():
            try:
                _swap(root, layout["outside"])
                (root / "run").unlink()
                (root / "run.old").rename(root / "run")
            except OSError:
                pass  # the import's own rewrite raced it: try again

    outcomes = {"ok": 0, "refused": 0, "failed": 0}
    thread = threading.Thread(target=swapper)
    thread.start()
    try:
        for i in range(150):
            try:
                TraceFileFactory(path=root / "run" / "trace.json", events=[EventFactory(name=f"inside_{i}")])
            except OSError:
                pass
            answer = ask(client, "import/action", {"path": ["run/trace.json"]})
            if not answer["result"]:
                assert answer["error"]["message"] == f"run/trace.json: {REFUSED}"
                outcomes["refused"] += 1
            else:
                outcomes["ok" if answer["body"]["result"][0]["result"] else "failed"] += 1
            assert SECRET not in names(database), (i, outcomes)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert outcomes["ok"] + outcomes["failed"] + outcomes["refused"] == 150


# ---- case 9: refusals tell nothing of the machine ----------------------------------------------


def test_refusals_are_one_message_without_the_root(layout, tmp_path):
    root, client = layout["root"], layout["client"]
    (root / "out.json").symlink_to(layout["outside"] / "run" / "trace.json")
    (root / "fifo").mkdir()
    os.mkfifo(root / "fifo" / "trace.json")
    cases = {
        str(layout["outside"] / "run" / "trace.json"): str(layout["outside"] / "run" / "trace.json"),  # exists
        str(tmp_path / "no" / "such.json"): str(tmp_path / "no" / "such.json"),  # does not
        "../outside/run/trace.json": "../outside/run/trace.json",
        "../outside/run/missing.json": "../outside/run/missing.json",
        str(root / "missing.json"): "missing.json",
        str(root / ".." / "outside" / "run" / "trace.json"): "../outside/run/trace.json",
        "out.json": "out.json",
        "fifo/trace.json": "fifo/trace.json",
    }
    for given, shown in cases.items():
        answer = ask(client, "import/action", {"path": [given]})
        assert (answer["result"], answer["error"]["message"]) == (False, f"{shown}: {REFUSED}"), given
        assert str(root) not in answer["error"]["message"]
    # files/get and the project check: an outside folder and a missing one look the same
    for given in (str(layout["outside"]), str(tmp_path / "missing"), "../outside", "out.json"):
        assert ask(client, "files/get", {"path": given})["body"] == {
            "path": given, "exist": False, "childrenFolders": [], "childrenFiles": []}
        assert ask(client, "files/checkProjectValid", {"dataPath": [given]})["body"] == {"result": 2}
    listing = ask(client, "files/get", {"path": ""})["body"]
    assert (listing["exist"], [f["name"] for f in listing["childrenFolders"]], listing["childrenFiles"]) == (
        True, ["fifo", "run"], [])  # the symlink out is listed neither as a file nor as a folder


# ---- case 13: an unchanged file is not read again ----------------------------------------------


def read_bytes() -> int:
    """Bytes this process has read through read(2) and its kin so far (/proc/self/io's rchar)."""
    with open("/proc/self/io", encoding="ascii") as io:
        return next(int(line.split()[1]) for line in io if line.startswith("rchar:"))


def test_an_unchanged_file_is_not_read_again(layout):
    root, client = layout["root"], layout["client"]
    big = root / "big" / "trace.json"
    padding = "x" * (16 << 20)  # 16 MiB the import would read again to hash the file
    TraceFileFactory(path=big, events=[EventFactory(name="big_op", args={"pad": padding})])
    first = ask(client, "import/action", {"path": ["big/trace.json"]})["body"]["result"]
    before = read_bytes()
    again = ask(client, "import/action", {"path": ["big/trace.json"]})["body"]["result"]
    assert read_bytes() - before < (1 << 20)
    assert again == first and again[0]["result"] is True
    # the same bytes written again (a new mtime): read, found unchanged by content
    big.write_bytes(big.read_bytes())
    before = read_bytes()
    assert ask(client, "import/action", {"path": ["big/trace.json"]})["body"]["result"] == first
    assert read_bytes() - before >= (16 << 20)
    # new content: ingested anew
    TraceFileFactory(path=big, events=[EventFactory(name="changed_op")])
    assert ask(client, "import/action", {"path": ["big/trace.json"]})["body"]["result"][0]["result"] is True
    assert names(layout["database"]) == {"changed_op"}


def test_concurrent_imports_of_one_file_read_it_once(layout):
    """Three imports of one new file at once share one hash read, where each used to hash the whole
    file itself (the file is one no source reads: nothing but the hash reads it whole)."""
    root, database = layout["root"], layout["database"]
    size = 64 << 20
    with open(root / "big.dat", "wb") as sparse:
        sparse.truncate(size)
    app = create_app({"TESTING": True, "DATABASE": str(database), "IMPORT_ROOT": str(root)})
    answers = []

    def one():
        answers.append(ask(app.test_client(), "import/action", {"path": ["big.dat"]})["body"]["result"])

    before = read_bytes()
    threads = [threading.Thread(target=one) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert [a[0]["cardPath"] for a in answers] == [str(root / "big.dat")] * 3
    assert size <= read_bytes() - before < 1.5 * size
