-- title: Insight AI Core frequency
-- description: A rank's AI Core frequency over its profile, as MindStudio Insight's Expert Analysis
--     judges it (expertAnalysis/AICoreFreq; Ascend/msinsight QueryExpAnaAICoreFreqHandler.cpp,
--     DbTraceDataBase.cpp and TextTraceDatabase.cpp QueryExpAnaAICoreFreqData): the samples of the
--     rank db's AICORE_FREQ table (series 'device<N>.aicore_freq') or of the trace's 'AI Core Freq'
--     counter (series 'AI Core Freq.MHz') in the inputs answering the rank's timeline; the drop from
--     the highest to the lowest in percent of the highest, truncated, and whether it is above 5 (the
--     real server's threshold for asking the user to look). One row; none when the rank has no sample.
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- column samples: Number of frequency samples.
-- column max_mhz: The highest frequency in MHz.
-- column min_mhz: The lowest frequency in MHz.
-- column percent: (max - min) / max in percent, truncated to an integer (0 when max is 0).
-- column has_problem: 1 when percent is above 5.
-- column process_id: The trace's counter process (process.id) holding the samples, null for a rank db's table.
with
freq_tracks as (
    select c.id, c.process_id
    from counter_track as c
    join answer_source as a on a.source_id = c.source_id and a.fact = 'timeline'
    where a.run_id = :run_id and a.rank_id = :rank_id
        and (c.name = 'AI Core Freq.MHz' or c.name like 'device%.aicore_freq')
),

samples as (
    select t.process_id, v.value
    from freq_tracks as t
    join _counter as v on v.track_id = t.id
),

final as (
    select
        count(*) as samples,
        max(value) as max_mhz,
        min(value) as min_mhz,
        cast(floor(coalesce(100.0 * (max(value) - min(value)) / nullif(max(value), 0), 0)) as integer) as percent,
        max(process_id) as process_id
    from samples
)

select samples, max_mhz, min_mhz, percent, case when percent > 5 then 1 else 0 end as has_problem, process_id
from final
where samples > 0
