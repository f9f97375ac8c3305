-- cluster_analysis.db (msprof-analyze's cluster analysis written as a database) is read as the
-- source kind 'cluster_analysis_db' (warehouse/sources/cluster_analysis_db.py): it holds the same
-- facts as the text cluster files (cluster_step_trace_time.csv, cluster_communication.json,
-- cluster_communication_matrix.json), so it takes part in the precedence of migration 0008 after
-- them: a rank's own exports answer first, the text cluster files next, the cluster db last.
INSERT INTO fact_precedence (fact, kind, precedence) VALUES ('step_summary', 'cluster_analysis_db', 4), ('communication_summary', 'cluster_analysis_db', 4), ('communication_matrix', 'cluster_analysis_db', 4);
