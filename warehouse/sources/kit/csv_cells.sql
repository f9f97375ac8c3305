-- DuckDB macros that convert a CSV export's cells (read as text) exactly as the Python converters of
-- warehouse/sources/kit/text.py do, for the sources whose rows DuckDB reads and converts in bulk.
-- A cell that does not convert gives NULL: the caller flags it (a NULL from a cell whose text is a
-- value) and names the line and column. Each converter first tries the form real exports write
-- (cheap), then strips the cell and tries the rest: whitespace, "no value" marks, exponents, more
-- decimals than the unit (DuckDB's VARCHAR -> DECIMAL cast is slow; only those take it).

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

-- The text `c` as an exact decimal scaled by 10^digits, rounded half to even, as a 64-bit integer;
-- NULL when it is no number or out of range.
CREATE MACRO exact(c, digits) AS
    TRY_CAST(round_even(TRY_CAST(c AS DECIMAL(38, 10)) * (10 ** digits)::DECIMAL(38, 0), 0) AS BIGINT);

-- Plain decimal text `s` with at most `digits` decimals scaled by 10^digits, shifted on its digits
-- ("1736410576431631.806" us -> 1736410576431631806 ns); NULL when it is not of that form.
CREATE MACRO shifted(s, digits, plain) AS
    CASE WHEN regexp_full_match(s, plain)
         THEN TRY_CAST(split_part(s, '.', 1) || rpad(split_part(s, '.', 2), digits, '0') AS BIGINT) END;

-- A number scaled by 10^digits as a 64-bit integer (text.scaled). `short` matches up to 12 integer
-- digits with at most `digits` decimals: those go through a double (the scaled value is under 2^53:
-- the double is within 0.11 of it and rounds to it); other `plain` text (any number of digits, at most
-- `digits` decimals) is shifted on its digits; anything else is stripped first, and what is still not
-- plain text goes through exact(). The patterns are literals (a pattern built per call is compiled per call).
CREATE MACRO scaled(v, digits, short, plain) AS
    CASE WHEN regexp_full_match(v, short) THEN round(TRY_CAST(v AS DOUBLE) * 10 ** digits)::BIGINT
         WHEN missing(stripped(v)) THEN NULL
         ELSE coalesce(shifted(stripped(v), digits, plain), exact(text_of(stripped(v)), digits)) END;

-- Microseconds as integer nanoseconds (text.us_to_ns).
CREATE MACRO us_to_ns(v) AS scaled(v, 3, '[+-]?[0-9]{1,12}(\.[0-9]{0,3})?', '[+-]?[0-9]*(\.[0-9]{0,3})?');

-- A whole number (text.integer).
CREATE MACRO whole(v) AS scaled(v, 0, '[+-]?[0-9]{1,12}\.?', '[+-]?[0-9]*\.?');

-- A ratio, rate or percentage as a double (text.real).
CREATE MACRO ratio(v) AS
    coalesce(TRY_CAST(v AS DOUBLE), CASE WHEN NOT missing(stripped(v)) THEN TRY_CAST(stripped(v) AS DOUBLE) END);

-- Text (text.text).
CREATE MACRO as_text(v) AS text_of(stripped(v));
