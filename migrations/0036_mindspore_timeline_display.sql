-- MindSpore's timeline of one device (ascend_timeline_display_{device}.json, issue 37): a trace of its own
-- kind that answers its rank's timeline after the rank db, a trace and msprof's timeline (none of which a
-- MindSpore profiler folder holds beside it), and never the rank's steps (MindSpore's step trace does).
INSERT INTO fact_precedence (fact, kind, precedence) VALUES
    ('timeline', 'mindspore_timeline_json', 4);
