-- thread.max_dur is at least every slice's dur on the thread: window searches on the
-- (thread_id, ts) index start at ts - max_dur and would miss a longer slice.
WITH longest AS (
    SELECT thread_id, max(dur) AS longest_dur
    FROM _slice
    GROUP BY thread_id
)
SELECT t.id AS thread_id, t.max_dur, l.longest_dur, t.source_id
FROM thread AS t
JOIN longest AS l ON l.thread_id = t.id
WHERE t.max_dur < l.longest_dur
