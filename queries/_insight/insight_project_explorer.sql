-- title: Insight project explorer records
-- description: What MindStudio Insight's page recorded of its project explorer in this warehouse
--     (import/action's projectName, files/updateProjectExplorer, files/deleteProjectExplorer,
--     files/clearProjectExplorer; Ascend/msinsight ProjectExplorerManager.cpp): each path imported under a
--     project's name (kind 'import': the project holds every card at or below it) and each path taken out of
--     a project (kind 'removed': the project leaves out every card at or below it), by kind, project, path.
-- column kind: 'import' (a path imported into the project) or 'removed' (a path taken out of it).
-- column project: The project's name.
-- column path: The path.
with
imported as (
    select 'import' as kind, project, path
    from insight_project_import
),

removed as (
    select 'removed' as kind, project, path
    from insight_project_removed
),

final as (
    select kind, project, path from imported
    union all
    select kind, project, path from removed
)

select kind, project, path
from final
order by kind, project, path
