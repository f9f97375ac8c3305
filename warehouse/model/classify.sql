-- Classify kernel rows (seed 004 sections 4 and 6): the rows a SELECT gives (put in as KERNEL_ROW in
-- _kernel_class.sql), classified by the CTEs of _kernel_class.sql, then written by the caller's statement
-- reading kernel_class (put in as WRITE below): classify_source's UPDATE of a source's rows in kernel, or a
-- kernel CSV's copy into kernel (warehouse/sources/kit/kernel_csv.py), which so writes each row once with
-- its class. classify.py puts both in. Reads kernel_signature and kernel_core_class (loaded by
-- classify.py). Statements run in order.

DROP TABLE IF EXISTS temp._kernel_key;

-- Each distinct name, type, core and task type of the rows once, with what they decide alone (the rows
-- then find theirs by one lookup, not six): the category and role of the first signature (file order)
-- whose pattern occurs in their text once folded (lower case, no '_', '-', '.', '/', ' '), the class the
-- core or else the task type names, and whether either is given. The text the signatures are matched in
-- is name, type, core and task type, kept apart by char(31). No column affinity: a value is kept as the
-- rows have it, so each row finds its own.
CREATE TEMP TABLE _kernel_key (
    name, op_type, accelerator_core, task_type, category, role, core_class, keyed,
    PRIMARY KEY (name, op_type, accelerator_core, task_type)
);

WITH
-- include: _kernel_class
,
keys AS (
    SELECT
        name,
        op_type,
        accelerator_core,
        task_type,
        (
            SELECT s.position
            FROM kernel_signature AS s
            WHERE instr(
                lower(replace(replace(replace(replace(replace(
                    coalesce(name, '') || char(31) || coalesce(op_type, '') || char(31)
                    || coalesce(accelerator_core, '') || char(31) || coalesce(task_type, ''),
                    '_', ''), '-', ''), '.', ''), '/', ''), ' ', '')),
                s.pattern
            ) > 0
            ORDER BY s.position
            LIMIT 1
        ) AS position,
        nullif(nullif(upper(trim(accelerator_core)), 'N/A'), '') AS core_key,
        nullif(nullif(upper(trim(task_type)), 'N/A'), '') AS task_key
    FROM (SELECT DISTINCT name, op_type, accelerator_core, task_type FROM kernel_row)
)
INSERT INTO temp._kernel_key (name, op_type, accelerator_core, task_type, category, role, core_class, keyed)
SELECT
    keys.name, keys.op_type, keys.accelerator_core, keys.task_type, sig.category, sig.role,
    coalesce(core.op_class, task.op_class), coalesce(core_key, task_key) IS NOT NULL
FROM keys
LEFT JOIN kernel_signature AS sig ON sig.position = keys.position
LEFT JOIN kernel_core_class AS core ON core.core = keys.core_key
LEFT JOIN kernel_core_class AS task ON task.core = keys.task_key;

-- Classes, families and bounds of every row, in one pass.
WITH
-- include: _kernel_class
{WRITE};

DROP TABLE temp._kernel_key;
