"""Every named query's answers at two revisions, on the same profiler samples, and their differences.

Usage:
    python scripts/answers_between_revisions.py REV_A REV_B DATA_DIR [--depth N] [--out DIR] [--show N]

Why: a refactoring should keep every figure a user sees. This tool shows which answers a change
of code moved, on real inputs, so each difference can be explained (a deliberate rule change) or
fixed (a regression).

For each revision it makes a git worktree in a temporary folder and, with the code of that
revision and its own command line (``python -m warehouse``, run by the interpreter running this
script, so run it with the project's virtualenv Python):

- ingests each sample of DATA_DIR into its own warehouse, and all of them into one (``ALL``);
  a sample is a folder DATA_DIR/<a>/.../<z> --depth levels down (1: DATA_DIR's own folders);
  the samples are copied first, so DATA_DIR is only read;
- runs ``warehouse analyze`` (the findings); its printed counts and the ingest's exit status are
  compared too, as the answers ``(analyze)`` and ``(ingest)``;
- runs every named query of that revision's catalog (``warehouse queries``) with its defaults,
  a required parameter taking a value found in the warehouse (the first known rank, the thread
  with the most slices and its time span, the slice with the most children, the first operator
  profile, the most frequent slice name);
- writes the answers as JSON, OUT/<commit>/<sample>.json (the revisions are resolved to commits
  first: HEAD may move while this runs).

Then it prints, per sample and query, ``identical`` or the rows found on one side only (columns
compared by name, floats to 12 significant digits; unmatched rows paired in answer order and
shown by the columns that changed), and a table of counts per sample.
The queries run in one process per warehouse, through the revision's click commands, so the
catalog's seventy-odd queries do not each pay a Python start-up.
"""
import argparse
import collections
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ALL = "ALL"
FLOAT_DIGITS = 12


# --- worker: runs inside a revision's worktree, with its `warehouse` package first on the path --

PICKS = {
    "rank_id": "select coalesce(min(rank_id), 0) from source where rank_id >= 0",
    "thread_id": "select thread_id from _slice group by thread_id order by count(*) desc, thread_id limit 1",
    "start": "select min(ts) from _slice where thread_id = ({thread})",
    "end": "select max(ts + dur) + 1 from _slice where thread_id = ({thread})",
    "slice_id": "select parent_id from _slice where parent_id is not null "
                "group by parent_id order by count(*) desc, parent_id limit 1",
    "source_id": "select coalesce((select min(source_id) from core_load), (select min(id) from source))",
    "text": "select name from slice group by name order by count(*) desc, name limit 1",
}


def pick_value(conn, name):
    """A value of required parameter ``name`` found in the warehouse, or None."""
    sql = PICKS.get(name)
    if sql is None:
        return None
    try:
        row = conn.execute(sql.format(thread=PICKS["thread_id"])).fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else row[0]


def invoke(cli, args):
    """Run the revision's click command ``args``; (exit code, stdout, error text)."""
    from click.testing import CliRunner

    result = CliRunner().invoke(cli, args, catch_exceptions=True)
    error = "" if result.exit_code == 0 else (result.output[-400:] + repr(result.exception))
    return result.exit_code, result.stdout, error


def answer_all(db_path, out_path):
    """Every named query of this revision on ``db_path``, written to ``out_path`` as JSON."""
    from warehouse.cli import cli

    _, catalog_text, _ = invoke(cli, ["queries", "--format", "json"])
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    answers = {}
    for query in json.loads(catalog_text):
        args = ["query", query["name"], "--db", db_path, "--format", "json", "--time-limit", "0", "--max-rows", "0"]
        params = {}
        for param in query["params"]:
            if param["required"]:
                params[param["name"]] = pick_value(conn, param["name"])
                args += ["-p", f"{param['name']}={params[param['name']]}"]
        code, text, error = invoke(cli, args)
        answers[query["name"]] = {"params": params, **({"rows": json.loads(text)} if code == 0 else {"error": error})}
    Path(out_path).write_text(json.dumps(answers, indent=1, sort_keys=True))


# --- driver: worktrees, ingest, analyze, then the differences -------------------------------------

def run(cmd, cwd, log):
    """Run ``cmd`` in ``cwd`` with that folder's ``warehouse`` package; append its output to ``log``."""
    env = dict(os.environ, PYTHONPATH=str(cwd))
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    with open(log, "a") as out:
        out.write(f"$ {' '.join(map(str, cmd))}\n{done.stdout}{done.stderr}(exit {done.returncode})\n")
    return done


def samples(data_dir, depth):
    """The sample folders of ``data_dir``: its folders ``depth`` levels down, by relative path."""
    found = [data_dir]
    for _ in range(depth):
        found = sorted(child for folder in found for child in folder.iterdir() if child.is_dir())
    return {str(folder.relative_to(data_dir)).replace(os.sep, "__"): folder for folder in found}


def commit_of(repo, rev):
    """The commit ``rev`` names now (HEAD moves when someone commits while this runs)."""
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", f"{rev}^{{commit}}"], check=True,
                          capture_output=True, text=True).stdout.strip()


def answers_at(repo, commit, data_dir, depth, work, out_dir):
    """Ingest, analyze and answer every sample (and all at once) with the code of ``commit``.

    Both revisions read the samples from the same path and write the same warehouse paths, so
    the answers that show a path (runs.root, slice_detail.source_path) compare equal."""
    tree = work / f"tree-{commit}"
    copy, dbs = work / "data", work / "db"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", str(tree), commit], check=True,
                   capture_output=True)
    try:
        shutil.copytree(data_dir, copy)
        dbs.mkdir()
        out_dir.mkdir(parents=True, exist_ok=True)
        log = out_dir / "log.txt"
        for name, folder in {**samples(copy, depth), ALL: copy}.items():
            db_path = dbs / f"{name}.db"
            print(f"[{commit[:10]}] {name}", file=sys.stderr, flush=True)
            ingest = run([sys.executable, "-m", "warehouse", "ingest", str(folder), "--db", str(db_path), "-q"],
                         tree, log)
            analyze = run([sys.executable, "-m", "warehouse", "analyze", "--db", str(db_path)], tree, log)
            answers_path = out_dir / f"{name}.json"
            run([sys.executable, str(Path(__file__).resolve()), "--answer", str(db_path), str(answers_path)], tree, log)
            answers = json.loads(answers_path.read_text()) if answers_path.exists() else {}
            answers["(ingest)"] = {"params": {}, "rows": [{"exit": ingest.returncode, "stderr": ingest.stderr.strip()}]}
            answers["(analyze)"] = {"params": {}, "rows": [{"line": line} for line in analyze.stdout.splitlines()]}
            answers_path.write_text(json.dumps(answers, indent=1, sort_keys=True))
    finally:
        subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)], capture_output=True)
        shutil.rmtree(copy, ignore_errors=True)
        shutil.rmtree(dbs, ignore_errors=True)


def canonical(value):
    """A value as compared: floats to FLOAT_DIGITS significant digits."""
    return float(f"{value:.{FLOAT_DIGITS}g}") if isinstance(value, float) else value


def row_key(row, columns):
    """One row's values on ``columns``, comparable and hashable."""
    return json.dumps([canonical(row.get(column)) for column in columns])


def compare(a, b):
    """(verdict, detail lines) for one query's answers ``a`` and ``b`` (None: no such query)."""
    if a is None or b is None:
        return ("only in B" if a is None else "only in A"), []
    if "error" in a or "error" in b:
        same = a.get("error") == b.get("error") and "error" in a
        return ("identical" if same else "differs"), [f"A error: {a.get('error')}", f"B error: {b.get('error')}"]
    columns_a = list(a["rows"][0]) if a["rows"] else []
    columns_b = list(b["rows"][0]) if b["rows"] else []
    common = [c for c in columns_a if c in columns_b] or columns_a or columns_b
    detail = []
    if a["rows"] and b["rows"] and columns_a != columns_b:
        detail.append(f"columns A only {[c for c in columns_a if c not in columns_b]}, "
                      f"B only {[c for c in columns_b if c not in columns_a]}")
    keys_a = [row_key(r, common) for r in a["rows"]]
    keys_b = [row_key(r, common) for r in b["rows"]]
    only_a = list((collections.Counter(keys_a) - collections.Counter(keys_b)).elements())
    only_b = list((collections.Counter(keys_b) - collections.Counter(keys_a)).elements())
    if a["params"] != b["params"]:
        detail.append(f"params A {a['params']} B {b['params']}")
    if not only_a and not only_b:
        if keys_a != keys_b:
            detail.append("same rows in another order")
        return ("identical" if not detail else "differs"), detail
    detail.append(f"rows A {len(keys_a)}, B {len(keys_b)}; {len(only_a)} A rows and {len(only_b)} B rows unmatched")
    detail += changed_rows(sorted(only_a, key=keys_a.index), sorted(only_b, key=keys_b.index), common)
    return "differs", detail


def changed_rows(only_a, only_b, columns):
    """Detail lines for the unmatched rows: as many as both sides have, paired in answer order and
    shown by the columns that changed; the rest whole."""
    lines = []
    for key_a, key_b in zip(only_a, only_b):
        pairs = zip(columns, json.loads(key_a), json.loads(key_b))
        lines.append("  " + "; ".join(f"{c}: {va!r} -> {vb!r}" for c, va, vb in pairs if va != vb)
                     + f"  (row {dict(zip(columns, json.loads(key_a)))})")
    lines += [f"  A only: {dict(zip(columns, json.loads(k)))}" for k in only_a[len(only_b):]]
    lines += [f"  B only: {dict(zip(columns, json.loads(k)))}" for k in only_b[len(only_a):]]
    return lines


def report(out_a, out_b, names, show):
    """Print each query's verdict per sample, then the counts per sample."""
    table = []
    for name in names:
        a = json.loads((out_a / f"{name}.json").read_text())
        b = json.loads((out_b / f"{name}.json").read_text())
        counts = collections.Counter()
        for query in sorted(set(a) | set(b)):
            verdict, detail = compare(a.get(query), b.get(query))
            counts[verdict] += 1
            if verdict != "identical":
                print(f"== {name} / {query}: {verdict}")
                for line in detail[:show]:
                    print(f"   {line}")
                if len(detail) > show:
                    print(f"   ... {len(detail) - show} more lines")
        table.append((name, counts))
    width = max(len(name) for name, _ in table)
    print(f"\n{'sample':{width}} identical differs  only-A  only-B")
    for name, counts in table:
        print(f"{name:{width}} {counts['identical']:9} {counts['differs']:7} {counts['only in A']:7} "
              f"{counts['only in B']:7}")


def main():
    """Parse the arguments and compare REV_A and REV_B (or, with --answer, answer one warehouse)."""
    if len(sys.argv) == 4 and sys.argv[1] == "--answer":
        return answer_all(sys.argv[2], sys.argv[3])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rev_a")
    parser.add_argument("rev_b")
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--depth", type=int, default=1, help="Levels below DATA_DIR a sample folder is (default 1).")
    parser.add_argument("--out", type=Path, default=None,
                        help="Keep the JSON answers here (default: a temporary folder).")
    parser.add_argument("--show", type=int, default=30, help="Detail lines printed per differing query.")
    args = parser.parse_args()
    repo = Path(__file__).resolve().parent.parent
    data_dir = args.data_dir.resolve()
    commits = [commit_of(repo, rev) for rev in (args.rev_a, args.rev_b)]
    print(f"A = {args.rev_a} = {commits[0]}\nB = {args.rev_b} = {commits[1]}")
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        out = args.out or work / "answers"
        for commit in commits:
            answers_at(repo, commit, data_dir, args.depth, work, out / commit[:10])
        names = [*samples(data_dir, args.depth), ALL]
        report(*(out / commit[:10] for commit in commits), names, args.show)

if __name__ == "__main__":
    main()
