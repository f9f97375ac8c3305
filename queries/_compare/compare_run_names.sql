-- title: Compare: run names
-- description: Every run's id and name, by id: `warehouse compare` and `warehouse report --run`
--     resolve the runs a user names (a name first, else an id) and list them when one is unknown.
-- column run_id: Run.
-- column name: Run name.
select run_id, name
from run
order by run_id
