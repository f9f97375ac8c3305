"""The picture pages: where a person would rather look than read.

Each page is a template shell plus one script in ``static/``; the script fetches its
rows from Datasette's own JSON API (the canned queries of the registry, with
``_shape=objects``) and draws them with Apache ECharts, vendored in ``static/`` so the
pages work offline. A page is linked from the database page when the named queries it
reads are in the registry. While an ``ingest --answers-first`` runs its second stage, each
page says per run what is still coming (the named query ``ingest_progress``). A page that
names a conclusion (the steps page's slow ranks) reads the findings of the last
``warehouse analyze``, as the report does, never a threshold of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from datasette.utils.asgi import NotFound, Response, asgi_static

from datasette_plugins.databases import is_warehouse
from warehouse import queries, units
from warehouse import ingest_progress as progress
from warehouse.analysis import findings

STATIC_DIR = Path(__file__).resolve().parent / "static"
TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
ROUTE_PREFIX = "/-/warehouse"


@dataclass(frozen=True)
class Page:
    """One picture page: its URL slug, title, what it shows and the named queries it reads."""

    slug: str
    title: str
    description: str
    queries: tuple[str, ...]


PAGES = (
    Page("timeline", "Timeline", "A zoomable flame chart of one thread, or of every thread of a process: "
         "drag or scroll to zoom, the slices of the visible window are fetched as you go; "
         "click a slice for its detail.",
         ("timeline_threads", "timeline_slices")),
    Page("steps", "Step time per rank", "Each rank's step time of one run split as the profiler splits it "
         "(preparing, computing, communication not overlapped, free), against the median over the run's ranks; "
         "a rank the last warehouse analyze found slow (slow_rank_suspected, as the report names it) "
         "stands out in red.",
         ("runs", "step_time", "findings")),
    Page("trend", "Runs over time", "Every run in the order they started: the mean step time, a line per "
         "rank and the mean over the ranks (a run slower than the one before it is marked), or the mean time of "
         "the kernels with the most time, a line per kernel.",
         ("trend_step_time", "trend_kernel")),
    Page("memory", "Memory per rank", "Allocated and reserved device memory of one run over time, one curve per "
         "rank and profiler component (APP: the whole process; PTA, GE, PTA+GE: the framework), with each "
         "curve's peak.", ("runs", "memory_curve", "memory_peak")),
    Page("roofline", "Roofline", "An operator's measured performance against the roofs of its chip: "
         "arithmetic intensity against achieved throughput, per unit.", ("op_runs", "op_roofline")),
    Page("hotspots", "Hot spots in source", "An operator's source code with the cycles and instructions "
         "spent on each line: the hottest lines are shaded.", ("op_runs", "op_hot_lines")),
    Page("cluster", "Cluster shape", "Each rank of one run at its place in the cluster: its pipeline stage and "
         "its index in its data-parallel group, as the run's profiler_metadata.json or communication_group.json "
         "names its parallel groups; the cross-rank findings compare a rank only with the ranks of its stage. A run "
         "that does not say its parallel groups says so: its ranks are compared with every other rank.",
         ("runs", "cluster_shape")),
)
PAGES_BY_SLUG = {page.slug: page for page in PAGES}


def available(page: Page) -> bool:
    """True when every named query the page reads is in the registry."""
    names = queries.catalog()
    return all(name in names for name in page.queries)


def page_url(datasette, database: str, page: Page) -> str:
    return datasette.urls.path(f"{ROUTE_PREFIX}/{database}/{page.slug}")


def routes():
    """``register_routes``: the pages and the vendored static files."""
    return [
        (rf"^{ROUTE_PREFIX}/static/(?P<path>.+)$", asgi_static(STATIC_DIR)),
        (rf"^{ROUTE_PREFIX}/(?P<database>[^/]+)/(?P<slug>[a-z]+)$", render_page),
    ]


async def render_page(datasette, request):
    """Render one page's shell for one warehouse; 404 for other databases and unknown pages."""
    database = request.url_vars["database"]
    page = PAGES_BY_SLUG.get(request.url_vars["slug"])
    if page is None or not is_warehouse(datasette, database):
        raise NotFound(f"no page {request.url_vars['slug']!r} for database {database!r}")
    missing = [name for name in page.queries if name not in queries.catalog()]
    config = {
        "page": page.slug,
        "database": database,
        "databaseUrl": datasette.urls.database(database),
        "args": {key: request.args.get(key) for key in request.args.keys()},
        "missing": missing,
        "units": units.TABLE,  # the rules of WH.formatNs, formatBytes and formatRate
    }
    warehouse = datasette.get_database(database)
    # the last analysis, or null: a page tells 'no finding' from 'run warehouse analyze'
    config["analysis"] = await warehouse.execute_fn(findings.latest_analysis)
    waiting = await warehouse.execute_fn(progress.waiting_runs)
    html = await datasette.render_template(
        "warehouse_page.html",
        {
            "still_coming": [(run["name"], progress.still_coming(run)) for run in waiting],
            "page": page,
            "pages": [(p, page_url(datasette, database, p)) for p in PAGES],
            "database": database,
            "static": datasette.urls.path(f"{ROUTE_PREFIX}/static"),
            "config": config,
        },
        request=request,
    )
    return Response.html(html)
