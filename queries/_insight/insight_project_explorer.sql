-- title: Insight project explorer state
-- description: What MindStudio Insight's page changed in this warehouse's project explorer
--     (files/updateProjectExplorer, files/deleteProjectExplorer, files/clearProjectExplorer;
--     Ascend/msinsight ProjectExplorerManager.cpp): the project's name it gave (one row of kind
--     'name', none while the page gave none) and each path it took out of the explorer (kind 'removed':
--     the explorer leaves out every card at or below it), in path order.
-- column kind: 'name' (the project's name) or 'removed' (a path taken out).
-- column value: The name, or the path.
with
named as (
    select 'name' as kind, name as value
    from insight_project
),

removed as (
    select 'removed' as kind, path as value
    from insight_explorer_removed
),

final as (
    select kind, value from named
    union all
    select kind, value from removed
)

select kind, value
from final
order by kind, value
