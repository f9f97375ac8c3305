-- title: Insight counter lanes
-- description: The counter series of one input's timeline that belong to a process, with their
--     process, in display order: what MindStudio Insight's Timeline draws as counter lanes (a trace's
--     'C' events; each series is named '<event name>.<arg>', one lane per event name and process,
--     TextTraceDatabase.cpp AddThreadTrack). Series without a process (a rank db's device tables)
--     are left out.
-- param source_id (integer, required): The input (source.id).
-- column process_id: The process (process.id).
-- column pid: Process id as the input writes it.
-- column process_name: Process name, when given.
-- column labels: Process labels, when given.
-- column track_id: The series (counter_track.id).
-- column name: Name of the series ('<event name>.<arg>').
select p.id as process_id, p.pid, p.name as process_name, p.labels, c.id as track_id, c.name
from counter_track as c
join process as p on p.id = c.process_id
where c.source_id = :source_id
order by coalesce(p.sort_index, p.id), p.id, c.id
