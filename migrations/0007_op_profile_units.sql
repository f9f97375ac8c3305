-- The operator profile in the units of the rest of the schema (DESIGN §3): op_run and op_block
-- gain dur in ns beside the writer's duration_us, memory_unit gains bandwidth_bytes_per_s
-- (GB = 10**9 bytes) beside the writer's bandwidth_gb_s. The old columns stay: the operator
-- views (service/insight) answer with the writer's own values.
-- An ingest converts the writer's text exactly (never through a float), rounded half to even.
-- Rows already in a warehouse are filled below from the stored REALs to the same integers:
-- a product within 1e-15 of a half (float error) is taken as that half and rounded to even,
-- since plain round() (half away from zero) would put 1 in ~2,000 "%.6f" durations 1 ns off.
-- A value past 64-bit integers stays NULL, as at ingest.

-- Total duration of the operator in ns (duration_us * 1000, rounded half to even); NULL when not given.
ALTER TABLE op_run ADD COLUMN dur INTEGER;

-- Duration of this sub-block in ns (duration_us * 1000, rounded half to even); NULL when "NA".
ALTER TABLE op_block ADD COLUMN dur INTEGER;

-- Bandwidth in bytes/s (bandwidth_gb_s * 10**9, GB = 10**9 bytes, rounded half to even); NULL when not given.
ALTER TABLE memory_unit ADD COLUMN bandwidth_bytes_per_s INTEGER;

UPDATE op_run SET dur = CAST(CASE
    WHEN abs(abs(duration_us * 1000 - round(duration_us * 1000)) - 0.5) <= abs(duration_us * 1000) * 1e-15
    THEN 2 * round(duration_us * 1000 / 2)
    ELSE round(duration_us * 1000) END AS INTEGER)
WHERE abs(duration_us * 1000) < 9223372036854775808.0;

UPDATE op_block SET dur = CAST(CASE
    WHEN abs(abs(duration_us * 1000 - round(duration_us * 1000)) - 0.5) <= abs(duration_us * 1000) * 1e-15
    THEN 2 * round(duration_us * 1000 / 2)
    ELSE round(duration_us * 1000) END AS INTEGER)
WHERE abs(duration_us * 1000) < 9223372036854775808.0;

UPDATE memory_unit SET bandwidth_bytes_per_s = CAST(CASE
    WHEN abs(abs(bandwidth_gb_s * 1e9 - round(bandwidth_gb_s * 1e9)) - 0.5) <= abs(bandwidth_gb_s * 1e9) * 1e-15
    THEN 2 * round(bandwidth_gb_s * 1e9 / 2)
    ELSE round(bandwidth_gb_s * 1e9) END AS INTEGER)
WHERE abs(bandwidth_gb_s * 1e9) < 9223372036854775808.0;
