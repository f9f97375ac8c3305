-- A step id is an integer (issue 23). The tables below are not STRICT, so SQLite's INTEGER affinity
-- stored whatever an input gave that did not look like a number as it was: a rank db whose STEP_TIME
-- id was the text '<img src=x onerror=...>' was accepted, grouped, compared and written into the
-- report as a step. These triggers refuse, on every INSERT and on every UPDATE of step_id, a step id
-- that is not an integer once affinity has applied (numeric text such as '3' or 3.0 is stored as the
-- integer 3 and passes; 'abc', 3.5, '' and a BLOB do not); NULL passes where the column allows it.
-- The ingest of such an input then fails as a whole with a one-line reason naming the file, the
-- input table and this column. Rows stored before this migration are left as they were
-- (the report escapes whatever they hold); landed migrations are never edited.

CREATE TRIGGER step_step_id_integer_insert
BEFORE INSERT ON step
WHEN typeof(NEW.step_id) NOT IN ('integer')
BEGIN
    SELECT RAISE(ABORT, 'step.step_id must be an integer');
END;

CREATE TRIGGER step_step_id_integer_update
BEFORE UPDATE OF step_id ON step
WHEN typeof(NEW.step_id) NOT IN ('integer')
BEGIN
    SELECT RAISE(ABORT, 'step.step_id must be an integer');
END;

CREATE TRIGGER kernel_step_id_integer_insert
BEFORE INSERT ON kernel
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'kernel.step_id must be an integer');
END;

CREATE TRIGGER kernel_step_id_integer_update
BEFORE UPDATE OF step_id ON kernel
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'kernel.step_id must be an integer');
END;

CREATE TRIGGER step_trace_time_step_id_integer_insert
BEFORE INSERT ON step_trace_time
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'step_trace_time.step_id must be an integer');
END;

CREATE TRIGGER step_trace_time_step_id_integer_update
BEFORE UPDATE OF step_id ON step_trace_time
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'step_trace_time.step_id must be an integer');
END;

CREATE TRIGGER communication_time_step_id_integer_insert
BEFORE INSERT ON communication_time
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'communication_time.step_id must be an integer');
END;

CREATE TRIGGER communication_time_step_id_integer_update
BEFORE UPDATE OF step_id ON communication_time
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'communication_time.step_id must be an integer');
END;

CREATE TRIGGER communication_bandwidth_step_id_integer_insert
BEFORE INSERT ON communication_bandwidth
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'communication_bandwidth.step_id must be an integer');
END;

CREATE TRIGGER communication_bandwidth_step_id_integer_update
BEFORE UPDATE OF step_id ON communication_bandwidth
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'communication_bandwidth.step_id must be an integer');
END;

CREATE TRIGGER communication_matrix_step_id_integer_insert
BEFORE INSERT ON communication_matrix
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'communication_matrix.step_id must be an integer');
END;

CREATE TRIGGER communication_matrix_step_id_integer_update
BEFORE UPDATE OF step_id ON communication_matrix
WHEN typeof(NEW.step_id) NOT IN ('integer', 'null')
BEGIN
    SELECT RAISE(ABORT, 'communication_matrix.step_id must be an integer');
END;
