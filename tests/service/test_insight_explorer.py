"""The project explorer's own commands through ``warehouse serve``'s WebSocket, on the real two-rank sample.

The page's project list (modules/framework ``utils/Request.ts``) renames the project
(``files/updateProjectExplorer``: ``oldProjectName``, ``newProjectName``), takes entries out of it
(``files/deleteProjectExplorer``: ``projectName``, ``dataPath``; an empty list: the whole project) and
clears it (``files/clearProjectExplorer``: ``projectNameList``; empty: every project). The real server
answers each with an empty body and changes its persisted explorer (``server/src/modules/global/core/
ProjectExplorerManager.cpp``); here ``files/getProjectExplorer`` answers the change afterwards, on this page
and on a page opened later, as the named query ``insight_project_explorer`` says it is kept, while every
ingested row stays (an import naming a file again brings its card back).

``global/setBaseline`` is followed by allPagesSuccess (``SetBaselineHandler.cpp``), as every import is
(test_insight_timeline.py).
"""

from __future__ import annotations

import shutil

import pytest
from websockets.sync.client import connect

from test_insight_cluster import named
from test_insight_timeline import DB_RUN, check_all_pages, imported, opened, sql
from test_insight_ws import Page, empty, root, serving  # noqa: F401 - empty and root are fixtures

# each test runs `warehouse serve` in a child process: seconds each
pytestmark = pytest.mark.slow

#: the rows every import of the sample leaves, whatever the explorer lists
HELD = ("SELECT (SELECT count(*) FROM source), (SELECT count(*) FROM kernel), (SELECT count(*) FROM slice), "
        "(SELECT count(*) FROM step)")


def explorer(page: Page) -> list[dict]:
    return page.body("global", "files/getProjectExplorer", {})["projectDirectoryList"]


def listed(page: Page) -> tuple[str, list[str]] | None:
    """(the project's name, the rank cards' paths under its cluster node), or None without a project."""
    found = explorer(page)
    if not found:
        return None
    [project] = found
    [cluster] = project["children"]
    assert [node["filePath"] for node in cluster["children"]] == project["fileName"]
    return project["projectName"], project["fileName"]


def kept(database) -> dict:
    """What the warehouse keeps of the explorer, by the named query: the name, the paths taken out."""
    found = named(database, "insight_project_explorer")
    return {"name": [row["value"] for row in found if row["kind"] == "name"],
            "removed": [row["value"] for row in found if row["kind"] == "removed"]}


def test_the_project_is_renamed_its_entries_taken_out_and_cleared(empty, root, realdata):
    run = root / "level0"
    shutil.copytree(realdata / DB_RUN, run)
    ranks = [str(run / f"rank{r}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f"ascend_pytorch_profiler_{r}.db")
             for r in (0, 1)]
    with opened(empty, root, run) as (page, body):
        held = sql(empty, HELD)
        assert held[0][0] == 6 and held[0][1] > 0  # six files: two rank dbs, two analysis.db, two profiler_info
        assert listed(page) == ("warehouse", ranks)
        assert kept(empty) == {"name": [], "removed": []}

        # the cluster as baseline: allPagesSuccess follows the answer (every rank card of the warehouse)
        assert page.body("global", "global/setBaseline", {"projectName": "warehouse", "filePath": str(run)})[
            "isCluster"] is True
        assert page.body("global", "heartCheck", {}) == {}
        check_all_pages(page.events[-1], empty, body["result"])

        # renamed: this page and a page opened later list it under its new name
        assert page.body("global", "files/updateProjectExplorer",
                         {"oldProjectName": "warehouse", "newProjectName": "two ranks"}) == {}
        assert listed(page) == ("two ranks", ranks) and kept(empty) == {"name": ["two ranks"], "removed": []}
        # another project's name changes nothing; an empty name is refused, as SystemMemoryDatabase's
        assert page.body("global", "files/updateProjectExplorer",
                         {"oldProjectName": "warehouse", "newProjectName": "other"}) == {}
        refused = page.send("global", "files/updateProjectExplorer",
                            {"oldProjectName": "two ranks", "newProjectName": ""})
        assert refused["result"] is False and "param is invalid" in refused["error"]["message"]
        assert listed(page)[0] == "two ranks"

        # rank 1's entry taken out: the explorer lists rank 0 alone; no ingested row goes
        assert page.body("global", "files/deleteProjectExplorer",
                         {"projectName": "two ranks", "dataPath": [ranks[1]]}) == {}
        assert listed(page) == ("two ranks", ranks[:1]) and kept(empty)["removed"] == [ranks[1]]
        assert sql(empty, HELD) == held
        # an entry of another project: nothing changes
        assert page.body("global", "files/deleteProjectExplorer",
                         {"projectName": "other", "dataPath": [ranks[0]]}) == {}
        assert listed(page) == ("two ranks", ranks[:1])
        # importing the file again brings its card back (nothing is read again: the warehouse holds it)
        imported(page, ranks[1])
        assert listed(page) == ("two ranks", ranks) and kept(empty)["removed"] == []
        assert sql(empty, HELD) == held

        # the whole project deleted (the list's "Delete"): no project until an import names its files again
        assert page.body("global", "files/deleteProjectExplorer", {"projectName": "two ranks", "dataPath": []}) == {}
        assert listed(page) is None and kept(empty)["removed"] == sorted(ranks)
        imported(page, run)
        assert listed(page) == ("two ranks", ranks)

        # cleared: nothing listed, and the page's baseline forgotten with it (the real server resets its
        # parsers and BaselineManager); another project's name clears nothing
        compare = {"isCompare": True, "clusterPath": str(run)}
        assert page.send("communication", "communication/duration/iterations", compare)["result"] is True
        assert page.body("global", "files/clearProjectExplorer", {"projectNameList": ["other"]}) == {}
        assert listed(page) == ("two ranks", ranks)
        assert page.body("global", "files/clearProjectExplorer", {"projectNameList": []}) == {}
        assert listed(page) is None
        refused = page.send("communication", "communication/duration/iterations", compare)
        assert refused["result"] is False and "needs a baseline cluster" in refused["error"]["message"]
        assert sql(empty, HELD) == held

    # what the page changed is the warehouse's: a page opened later sees it
    with serving(empty, root) as (url, _), connect(url) as socket:
        later = Page(socket)
        assert listed(later) is None
        imported(later, run)
        assert listed(later) == ("two ranks", ranks)
