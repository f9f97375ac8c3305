-- title: AI Core frequency (msprof-analyze freq_analysis)
-- description: Per run, rank and device, the AI Core frequency samples (AICORE_FREQ, counter
--     tracks '<device>.aicore_freq') of the input that answers the rank's timeline: range,
--     mean, and how many samples ran below the nominal frequency. A rank is flagged abnormal
--     when any sample is below nominal (throttling, power capping), and idle when every
--     sample sits at the idle frequency.
-- param run_id (integer, default null): Only this run; every run when null.
-- param nominal_mhz (real, default 1800): Nominal AI Core frequency in MHz.
-- param idle_mhz (real, default 800): Frequency of an idle (power-saving) AI Core in MHz.
-- column run_id: Run.
-- column rank_id: Rank.
-- column track: Counter track of the samples (device<id>.aicore_freq).
-- column samples: Number of samples.
-- column min_mhz: Lowest frequency in MHz.
-- column avg_mhz: Mean of the samples in MHz.
-- column max_mhz: Highest frequency in MHz.
-- column below_nominal_samples: Samples below nominal_mhz.
-- column abnormal: 1 when some sample is below nominal_mhz, else 0.
-- column idle: 1 when every sample is at or below idle_mhz, else 0.
with samples as (
    select a.run_id, t.rank_id, t.name as track, c.value
    from counter_track as t
    join answer_source as a on a.source_id = t.source_id and a.fact = 'timeline'
    join _counter as c on c.track_id = t.id
    where t.name like '%.aicore_freq' and (:run_id is null or a.run_id = :run_id)
),

final as (
    select
        run_id,
        rank_id,
        track,
        count(*) as samples,
        min(value) as min_mhz,
        avg(value) as avg_mhz,
        max(value) as max_mhz,
        sum(case when value < :nominal_mhz then 1 else 0 end) as below_nominal_samples,
        case when min(value) < :nominal_mhz then 1 else 0 end as abnormal,
        case when max(value) <= :idle_mhz then 1 else 0 end as idle
    from samples
    group by run_id, rank_id, track
)

select run_id, rank_id, track, samples, min_mhz, avg_mhz, max_mhz, below_nominal_samples, abnormal, idle
from final
order by run_id, abnormal desc, rank_id, track
