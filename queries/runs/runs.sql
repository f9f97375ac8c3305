-- title: Runs
-- description: The profiling runs the warehouse holds (a folder of rank folders, a PROF_* folder,
--     a trace file on its own): name, root, profiler, start, how many inputs and ranks, and how
--     many of its steps the profiler's own summary answers. Every per-rank answer takes a run_id.
-- column run_id: Run.
-- column name: Run name (--run NAME, or the root's trailing folder names).
-- column root: Root of the run (folder or file).
-- column profiler: Profiler that wrote it, when known.
-- column profiler_version: Its version, when an input says.
-- column start_ns: Earliest step or kernel start of the run, in ns.
-- column sources: Inputs ingested ok.
-- column ranks: Ranks (rank view).
-- column steps: Steps with a breakdown (step_answer).
-- column summary_steps: Of those, steps the profiler's own summary answers.
select
    r.run_id,
    r.name,
    r.root,
    r.profiler,
    r.profiler_version,
    r.start_ns,
    (select count(*) from source as s where s.run_id = r.run_id and s.status = 'ok') as sources,
    (select count(*) from rank as k where k.run_id = r.run_id) as ranks,
    (select count(*) from step_answer as a where a.run_id = r.run_id) as steps,
    (select count(*) from step_answer as a where a.run_id = r.run_id and a.basis <> 'derived') as summary_steps
from run as r
order by r.run_id
