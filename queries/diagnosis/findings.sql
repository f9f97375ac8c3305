-- title: Findings
-- description: What `warehouse analyze` concluded (issue 9): one row per finding of the
--     latest run, most severe first, with how many evidence rows back it. The rules are the
--     rule_* queries; finding_evidence lists each finding's input rows.
-- param run_id (integer, default null): Only findings about this run; every run when null.
-- param finding_type (text, default null): Only this type (e.g. slow_rank_suspected); every type when null.
-- param severity (text, default null, one of high|medium|low): Only this severity; every one when null.
-- param rank_id (integer, default null): Only findings about this rank; all when null.
-- column run_id: Run the finding is about (NULL: an operator profile alone).
-- column id: finding.id (finding_evidence's finding_id).
-- column finding_type: Rule that produced it.
-- column severity: high, medium or low.
-- column confidence: high, medium or low (seed 004).
-- column rank_id: Rank it is about (NULL: the cluster or an operator profile).
-- column step_id: Step it is about.
-- column subject: What it is about (a rank, a collective, a kernel, an operator).
-- column message: One line: what was seen and what to change.
-- column numbers: The numbers behind the message (JSON object).
-- column evidence_rows: Number of evidence rows.
with found as (
    select f.run_id, f.id, f.finding_type, f.severity, f.confidence, f.rank_id, f.step_id, f.subject, f.message, f.numbers,
        case f.severity when 'high' then 0 when 'medium' then 1 else 2 end as severity_order
    from finding as f
    where (:run_id is null or f.run_id = :run_id)
        and (:finding_type is null or f.finding_type = :finding_type)
        and (:severity is null or f.severity = :severity)
        and (:rank_id is null or f.rank_id = :rank_id)
),

final as (
    select
        f.run_id, f.id, f.finding_type, f.severity, f.confidence, f.rank_id, f.step_id, f.subject, f.message,
        f.numbers,
        (select count(*) from finding_evidence as e where e.finding_id = f.id) as evidence_rows,
        f.severity_order
    from found as f
)

select run_id, id, finding_type, severity, confidence, rank_id, step_id, subject, message, numbers, evidence_rows
from final
order by run_id, severity_order, finding_type, id
