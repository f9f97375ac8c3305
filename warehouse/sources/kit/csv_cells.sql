-- DuckDB macros that convert a CSV export's cells (read as text) exactly as the Python converters of
-- warehouse/sources/kit/text.py do, for the CSV exports DuckDB reads and converts in bulk
-- (warehouse/sources/kit/csv_bulk.py). A macro converts the forms real exports write, and gives NULL
-- for any form it cannot convert exactly: the caller hands such a cell (a NULL from a cell that holds
-- a value) to the Python converter itself, which converts it or names the line and column.
-- (DuckDB's VARCHAR -> DECIMAL(38, 10) cast rounds a cell of more decimals before it is scaled:
-- 425.06850000000003 us gave 425068 ns where Python's exact 425069; such cells are Python's.)
-- A number's macro strips nothing: a cell with spaces around it is Python's. A macro's parameter is
-- its expression written out at each use, and DuckDB computes an expression written out twice in a
-- statement once, for every row, before the CASE that needs it for a few: `stripped` twice in the
-- numbers' macros stripped every cell of every column (~0.55 of 2.3 CPU-s on a 46-column export).

-- The cell stripped of whitespace as Python's str.strip() strips it (ASCII and Unicode spaces); the
-- replacement runs only on a cell that starts or ends with one.
CREATE MACRO stripped(v) AS
    CASE WHEN regexp_matches(v, '^[\s\x{0b}\x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]|[\s\x{0b}\x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]$')
         THEN regexp_replace(v, '^[\s\x{0b}\x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]+|[\s\x{0b}\x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]+$', '', 'g') ELSE v END;

-- Whether a stripped cell is one of the marks the exports write for "no value" (text.MISSING).
CREATE MACRO missing(s) AS list_contains(['', 'N/A', 'NA', 'n/a', 'None', 'null', 'NULL', '-'], s);

-- The stripped cell `s` as text (text.text): no value as NULL, the triple quotes of shapes removed.
CREATE MACRO text_of(s) AS
    CASE WHEN missing(s) THEN NULL
         WHEN length(s) >= 2 AND starts_with(s, '"') AND ends_with(s, '"') THEN trim(s, '"')
         ELSE s END;

-- Plain decimal text `s` with at most `digits` decimals scaled by 10^digits, shifted on its digits
-- ("1736410576431631.806" us -> 1736410576431631806 ns); NULL when it is not of that form.
CREATE MACRO shifted(s, digits, plain) AS
    CASE WHEN regexp_full_match(s, plain)
         THEN TRY_CAST(split_part(s, '.', 1) || rpad(split_part(s, '.', 2), digits, '0') AS BIGINT) END;

-- A number scaled by 10^digits as a 64-bit integer (text.scaled). `short` matches up to 12 integer
-- digits with at most `digits` decimals: those go through a double (the scaled value is under 2^53:
-- the double is within 0.11 of it and rounds to it); other `plain` text (any number of digits, at most
-- `digits` decimals) is shifted on its digits; anything else (spaces around it, an exponent, more
-- decimals than the unit) is NULL, left to Python. The patterns are literals (a pattern built per call
-- is compiled per call).
CREATE MACRO scaled(v, digits, short, plain) AS
    CASE WHEN regexp_full_match(v, short) THEN round(TRY_CAST(v AS DOUBLE) * 10 ** digits)::BIGINT
         WHEN regexp_full_match(v, plain) AND NOT missing(v) THEN shifted(v, digits, plain) END;

-- The cell without the TABs the exports write after a timestamp (what Python's strip cuts too); rtrim
-- runs only on a cell that ends with one (rtrim with characters costs ~55 ns a cell, ends_with ~3).
CREATE MACRO untabbed(v) AS CASE WHEN ends_with(v, chr(9)) THEN rtrim(v, chr(9)) ELSE v END;

-- Microseconds as integer nanoseconds (text.us_to_ns), the TABs after a timestamp cut first.
CREATE MACRO us_to_ns(v) AS scaled(untabbed(v), 3, '[+-]?[0-9]{1,12}(\.[0-9]{0,3})?', '[+-]?[0-9]*(\.[0-9]{0,3})?');

-- A whole number (text.integer).
CREATE MACRO whole(v) AS scaled(v, 0, '[+-]?[0-9]{1,12}\.?', '[+-]?[0-9]*\.?');

-- A ratio, rate or percentage as a double (text.real); NULL for what DuckDB does not read as one
-- (left to Python: a missing mark, Unicode spaces around it).
CREATE MACRO ratio(v) AS TRY_CAST(v AS DOUBLE);

-- Text (text.text).
CREATE MACRO as_text(v) AS text_of(stripped(v));

-- Milliseconds as integer nanoseconds (text.ms_to_ns).
CREATE MACRO ms_to_ns(v) AS scaled(v, 6, '[+-]?[0-9]{1,9}(\.[0-9]{0,6})?', '[+-]?[0-9]*(\.[0-9]{0,6})?');

-- The whole number `whole` plus `tenths`, a count of 10^-10 (both non-negative), rounded half to even.
CREATE MACRO plus_rounded(whole, tenths) AS
    whole + tenths // 10000000000
    + CASE WHEN tenths % 10000000000 > 5000000000
             OR (tenths % 10000000000 = 5000000000 AND (whole + tenths // 10000000000) % 2 = 1) THEN 1 ELSE 0 END;

-- Plain decimal text `v` (up to 9 integer digits, 10 decimals) times the whole `factor` (up to 2^20),
-- exact and rounded half to even (text.scaled of a factor that is no power of ten), on its digits in
-- 64-bit integers: its integer part and its decimals each times the factor (DuckDB's VARCHAR -> DECIMAL
-- cast costs ~25 us a cell, 128-bit division ~2 us); NULL for any other form (left to Python).
CREATE MACRO times(v, factor) AS
    CASE WHEN regexp_full_match(v, '[+-]?[0-9]{1,9}(\.[0-9]{0,10})?')
         THEN (CASE WHEN starts_with(v, '-') THEN -1 ELSE 1 END)
              * plus_rounded(CAST(ltrim(split_part(v, '.', 1), '+-') AS BIGINT) * factor,
                             CAST(rpad(split_part(v, '.', 2), 10, '0') AS BIGINT) * factor) END;

-- KiB as bytes (text.kib_to_bytes).
CREATE MACRO kib_to_bytes(v) AS times(v, 1024);

-- MiB as bytes (text.mib_to_bytes).
CREATE MACRO mib_to_bytes(v) AS times(v, 1048576);

-- A variance in us^2 as ns^2 (text.us2_to_ns2): the double times 10^6, as Python multiplies it.
CREATE MACRO us2_to_ns2(v) AS ratio(v) * 1e6::DOUBLE;

-- The device of `NPU:0` or `0` (text.device_id); NULL for any other form (left to Python: `host`, spaces).
CREATE MACRO device_number(v) AS
    CASE WHEN regexp_full_match(v, '(NPU:)?[0-9]{1,9}') THEN CAST(regexp_extract(v, '[0-9]+$') AS BIGINT) END;

-- The step number of `50` or `step50` (kit.step_trace.step_number); NULL for any other form (left to Python).
CREATE MACRO step_number(v) AS
    CASE WHEN regexp_full_match(v, '[A-Za-z_]*[0-9]{1,9}') THEN CAST(regexp_extract(v, '[0-9]+$') AS BIGINT) END;
