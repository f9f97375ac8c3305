-- reads: NPU_INFO
-- NPU_INFO: the chip of each device (e.g. npu.0 = Ascend910B).
INSERT INTO run_metadata (source_id, rank_id, name, value)
SELECT :source_id, :rank_id, 'npu.' || n.id, n.name
FROM in_NPU_INFO AS n;
