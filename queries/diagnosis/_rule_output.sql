-- Helper (included by every rule_*.sql, not a query itself): a rule's answer, the columns of the
-- output contract (warehouse.analysis.findings.RULE_COLUMNS) from its CTE final, in that order;
-- the rule follows the include with its own order by.
select
    finding_key, run_id, rank_id, step_id, subject, severity, confidence, message, numbers, evidence_table,
    evidence_source_id, evidence_source_row, evidence_slice_id, evidence_kernel_id, evidence_note
from final
