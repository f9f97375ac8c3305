-- Stage 1's scratch warehouse, once made: the kernel indexes no staged answer reads go (kernels are
-- read by (source_id, ts), as the step lookups search them), so the rank's rows go in faster.
DROP INDEX kernel_rank_ts;
DROP INDEX kernel_name;
