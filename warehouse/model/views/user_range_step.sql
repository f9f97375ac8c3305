-- description: Every user range (mstx: prefill, decode, a phase) of every rank of every run with
--     the step that holds its start under the one step rule (step_span: from a step's start to
--     the next step's start; NULL before the rank's first step), so per-step and per-phase
--     answers can group by the ranges a program marked.
-- column run_id: Run.
-- column rank_id: Rank the range was marked on (-1 when unknown).
-- column step_id: Step holding the range's start (-1: the rank's whole capture; NULL before the rank's first step).
-- column name: The message the program gave the range.
-- column kind: How it was marked: marker, push/pop, start/end or marker_ex.
-- column domain: The mstx domain (NULL for the default domain).
-- column ts: Start of the range in ns.
-- column dur: Length of the range in ns (0 for a mark).
-- column global_tid: Global thread id that started it (pid in the high 32 bits, tid in the low 32 bits).
-- column source_id: Input the range came from.
-- column source_row: Row of MSTX_EVENTS (its rowid).
SELECT
    src.run_id, u.rank_id, s.step_id, u.name, u.kind, u.domain, u.ts, u.dur, u.global_tid, u.source_id, u.source_row
FROM user_range AS u
JOIN source AS src ON src.id = u.source_id AND src.status = 'ok'
-- a rank's spans do not overlap: one span at most holds a range's start
LEFT JOIN step_span AS s
    ON s.run_id = src.run_id AND s.rank_id = u.rank_id AND u.ts >= s.span_start_ns AND u.ts < s.span_end_ns
