-- title: Insight timeline kinds
-- description: The input kinds that answer a rank's timeline, best first (fact_precedence, fact
--     timeline): import/action derives the rank cards an import will give from its files' kinds
--     before it reads them.
-- column kind: Input format.
-- column precedence: Its precedence for the timeline (1 answers before 2).
select kind, precedence
from fact_precedence
where fact = 'timeline'
order by precedence, kind
