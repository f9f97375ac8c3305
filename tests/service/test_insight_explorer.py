"""The project explorer through ``warehouse serve``'s WebSocket, on real two-rank samples: one project per
import's ``projectName``, and the page's commands on each.

The page names a new project by the path it imports and imports "under" a project by that project's name
(modules/framework ``components/RemoteManager/ImportData/FileExplorer.tsx`` confirmFile); the real server
records each import under that name and lists one project per name, its imports merged
(``server/src/modules/global/core/ProjectExplorerManager.cpp`` SaveProjectExplorer,
``handler/GetProjectExplorerInfoHandler.cpp``). So a page opened later lists the projects the page created,
with their cards, and a folder imported again goes into its project. The page's project list
(``utils/Request.ts``) renames a project (``files/updateProjectExplorer``: ``oldProjectName``,
``newProjectName``), takes entries out of one (``files/deleteProjectExplorer``: ``projectName``, ``dataPath``;
an empty list: the whole project) and clears them (``files/clearProjectExplorer``: ``projectNameList``; empty:
every project); each answers an empty body and changes that project alone, on this page and on a page opened
later, as the named query ``insight_project_explorer`` says it is kept, while every ingested row stays.

``global/setBaseline`` is followed by allPagesSuccess (``SetBaselineHandler.cpp``), as every import is
(test_insight_timeline.py).
"""

from __future__ import annotations

import contextlib
import shutil

import pytest
from websockets.sync.client import connect

from test_insight_cluster import named
from test_insight_cluster_compare import BASELINE_RUN
from test_insight_timeline import DB_RUN, check_all_pages, sql
from test_insight_ws import Page, empty, root, serving  # noqa: F401 - empty and root are fixtures
from warehouse.cli import cli

# each test runs `warehouse serve` in a child process: seconds each
pytestmark = pytest.mark.slow

#: the rows every import of the samples leaves, whatever the explorer lists
HELD = ("SELECT (SELECT count(*) FROM source), (SELECT count(*) FROM kernel), (SELECT count(*) FROM slice), "
        "(SELECT count(*) FROM step)")


@contextlib.contextmanager
def page_on(database, root):
    """A running server on ``database`` and a page connected to it (each call: a page opened anew)."""
    with serving(database, root) as (url, _), connect(url) as socket:
        yield Page(socket)


def import_into(page: Page, path, project: str) -> dict:
    """import/action of ``path`` into the project ``project``, as the Import Data dialog sends it."""
    body = page.body("timeline", "import/action", {"projectName": project, "path": [str(path)], "projectAction": 0,
                                                   "isConflict": False})
    assert page.body("global", "heartCheck", {}) == {}  # the import's events come before this answer
    return body


def explorer(page: Page) -> dict[str, list[str]]:
    """Each project's name and its rank cards' paths (those of a cluster under its node, in the same order)."""
    found = {}
    for project in page.body("global", "files/getProjectExplorer", {})["projectDirectoryList"]:
        assert set(project) == {"projectName", "fileName", "children"}
        ranks = [rank for node in project["children"] for rank in (node["children"] if node["type"] == "CLUSTER"
                                                                   else [node])]
        assert [rank["filePath"] for rank in ranks] == project["fileName"]
        found[project["projectName"]] = project["fileName"]
    return found


def kept(database) -> dict[str, list[tuple[str, str]]]:
    """What the warehouse keeps of the explorer, by the named query: (project, path) imported, taken out."""
    found = named(database, "insight_project_explorer")
    return {kind: [(row["project"], row["path"]) for row in found if row["kind"] == kind]
            for kind in ("import", "removed")}


def two_runs(root, realdata):
    """The real level-0 and level-1 two-rank db runs copied below the root; with each run's rank cards' paths."""
    runs = {root / "level0": DB_RUN, root / "level1": BASELINE_RUN}
    for run, sample in runs.items():
        shutil.copytree(realdata / sample, run)
    return {run: [str(run / f"rank{r}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f"ascend_pytorch_profiler_{r}.db")
                  for r in (0, 1)] for run in runs}


def test_a_page_opened_later_lists_the_projects_imported_and_an_import_again_adds_none(empty, root, realdata):
    ranks = two_runs(root, realdata)
    first, second = root / "level0", root / "level1"
    p, q = str(first), str(second)  # the page names a new project by the path imported
    with page_on(empty, root) as page:
        body = import_into(page, first, p)
        assert [card["rankId"] for card in body["result"]] == ranks[first]
        held = sql(empty, HELD)
        assert explorer(page) == {p: ranks[first]}
    # a page reloaded: the project it created, with its cards (under the cluster's node), and nothing else
    with page_on(empty, root) as page:
        (project,) = page.body("global", "files/getProjectExplorer", {})["projectDirectoryList"]
        assert project["projectName"] == p and project["fileName"] == ranks[first]
        (cluster,) = project["children"]
        assert (cluster["type"], cluster["filePath"], cluster["clusterPath"]) == ("CLUSTER", p, "level0")
        assert [(rank["type"], rank["filePath"]) for rank in cluster["children"]] == [
            ("RANK", path) for path in ranks[first]]
        # the same folder imported again into its project: still one project, one record, nothing read again
        import_into(page, first, p)
        assert explorer(page) == {p: ranks[first]}
        assert kept(empty) == {"import": [(p, p)], "removed": []} and sql(empty, HELD) == held
        # a second folder as a new project: two projects, by name, each with its own cards
        import_into(page, second, q)
        assert explorer(page) == {p: ranks[first], q: ranks[second]}
        # a rank's folder imported under the first project: its card joins that project as well
        import_into(page, second / "rank1_ascend_pt", p)
        assert explorer(page) == {p: ranks[first] + ranks[second][1:], q: ranks[second]}
        assert kept(empty)["import"] == [(p, p), (p, str(second / "rank1_ascend_pt")), (q, q)]
    with page_on(empty, root) as page:
        assert explorer(page) == {p: ranks[first] + ranks[second][1:], q: ranks[second]}


def test_cards_ingested_without_a_name_are_one_project_per_run_root(empty, root, realdata, runner):
    """``warehouse ingest`` records no project: each run is listed as the project the page would have made of
    its folder (named by the path), so importing the folder from the page adds no second project."""
    ranks = two_runs(root, realdata)
    for run in ranks:
        result = runner.invoke(cli, ["ingest", str(run), "--db", str(empty), "--quiet"])
        assert result.exit_code == 0, result.output
    p, q = (str(run) for run in ranks)
    assert [row[0] for row in sql(empty, "SELECT root FROM run ORDER BY root")] == [p, q]
    with page_on(empty, root) as page:
        assert explorer(page) == {p: ranks[root / "level0"], q: ranks[root / "level1"]}
        import_into(page, root / "level0", p)
        assert explorer(page) == {p: ranks[root / "level0"], q: ranks[root / "level1"]}
        assert kept(empty) == {"import": [(p, p)], "removed": []}
        # a run's project renamed: recorded under its new name (its cards' files), listed so on a page opened later
        assert page.body("global", "files/updateProjectExplorer", {"oldProjectName": q, "newProjectName": "B"}) == {}
    with page_on(empty, root) as page:
        assert explorer(page) == {p: ranks[root / "level0"], "B": ranks[root / "level1"]}
        assert kept(empty)["import"] == [(p, p)] + [("B", path) for path in ranks[root / "level1"]]


def test_projects_are_renamed_their_entries_taken_out_and_cleared_one_by_one(empty, root, realdata):
    ranks = two_runs(root, realdata)
    first, second = root / "level0", root / "level1"
    with page_on(empty, root) as page:
        results = import_into(page, first, "P")["result"] + import_into(page, second, "Q")["result"]
        held = sql(empty, HELD)
        assert held[0][0] == 12 and held[0][1] > 0  # per run six files: two rank dbs, two analysis.db, two infos
        assert explorer(page) == {"P": ranks[first], "Q": ranks[second]}

        # the first cluster as baseline: allPagesSuccess follows the answer (every rank card of the warehouse)
        assert page.body("global", "global/setBaseline", {"projectName": "P", "filePath": str(first)})[
            "isCluster"] is True
        assert page.body("global", "heartCheck", {}) == {}
        check_all_pages(page.events[-1], empty, results)

        # renamed: its records move with it; another name changes nothing; an empty name is refused, as
        # SystemMemoryDatabase's
        assert page.body("global", "files/updateProjectExplorer", {"oldProjectName": "P", "newProjectName": "A"}) == {}
        assert explorer(page) == {"A": ranks[first], "Q": ranks[second]}
        assert kept(empty) == {"import": [("A", str(first)), ("Q", str(second))], "removed": []}
        assert page.body("global", "files/updateProjectExplorer", {"oldProjectName": "P", "newProjectName": "X"}) == {}
        refused = page.send("global", "files/updateProjectExplorer", {"oldProjectName": "A", "newProjectName": ""})
        assert refused["result"] is False and "param is invalid" in refused["error"]["message"]
        assert explorer(page) == {"A": ranks[first], "Q": ranks[second]}

        # rank 1's entry taken out of A: A lists rank 0 alone, Q is untouched; no ingested row goes
        assert page.body("global", "files/deleteProjectExplorer",
                         {"projectName": "A", "dataPath": [ranks[first][1]]}) == {}
        assert explorer(page) == {"A": ranks[first][:1], "Q": ranks[second]}
        assert kept(empty)["removed"] == [("A", ranks[first][1])] and sql(empty, HELD) == held
        # an entry named under another project: nothing changes
        assert page.body("global", "files/deleteProjectExplorer",
                         {"projectName": "Q", "dataPath": [ranks[first][0]]}) == {}
        assert explorer(page) == {"A": ranks[first][:1], "Q": ranks[second]}
        # imported again into A: its card is back (nothing is read again: the warehouse holds it)
        import_into(page, ranks[first][1], "A")
        assert explorer(page) == {"A": ranks[first], "Q": ranks[second]} and kept(empty)["removed"] == []

        # the whole of Q deleted (the list's "Delete"): A alone, until an import into Q names its files again
        assert page.body("global", "files/deleteProjectExplorer", {"projectName": "Q", "dataPath": []}) == {}
        assert explorer(page) == {"A": ranks[first]}
        assert kept(empty)["removed"] == [("Q", path) for path in ranks[second]] and sql(empty, HELD) == held

    # a page opened later sees the same; Q comes back when its folder is imported into it again
    with page_on(empty, root) as page:
        assert explorer(page) == {"A": ranks[first]}
        import_into(page, second, "Q")
        assert explorer(page) == {"A": ranks[first], "Q": ranks[second]}

        # cleared by name: Q alone goes, and the page's baseline with it (the real server resets its parsers and
        # BaselineManager); a name no project has clears nothing
        compare = {"isCompare": True, "clusterPath": str(first)}
        assert page.body("global", "global/setBaseline", {"projectName": "Q", "filePath": str(second)})[
            "isCluster"] is True
        assert page.send("communication", "communication/duration/iterations", compare)["result"] is True
        assert page.body("global", "files/clearProjectExplorer", {"projectNameList": ["other"]}) == {}
        assert explorer(page) == {"A": ranks[first], "Q": ranks[second]}
        assert page.body("global", "files/clearProjectExplorer", {"projectNameList": ["Q"]}) == {}
        assert explorer(page) == {"A": ranks[first]}
        refused = page.send("communication", "communication/duration/iterations", compare)
        assert refused["result"] is False and "needs a baseline cluster" in refused["error"]["message"]
        # every project cleared: nothing listed, every ingested row kept
        assert page.body("global", "files/clearProjectExplorer", {"projectNameList": []}) == {}
        assert explorer(page) == {} and sql(empty, HELD) == held

    with page_on(empty, root) as page:
        assert explorer(page) == {}
        import_into(page, first, "A")
        assert explorer(page) == {"A": ranks[first]}
