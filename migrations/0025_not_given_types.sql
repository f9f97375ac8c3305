-- One encoding of "not given" for a kernel's and an HCCL operator's type (issue 34): a level-0 rank
-- db writes the string 'N/A' where the text export writes N/A cells, which that export's source
-- reads as NULL. The rank db source now reads 'N/A' and '' as NULL too; the rows an older ingest
-- stored are moved here, so an upgraded warehouse answers as a fresh one (compute_op_sum listed an
-- operator type 'N/A' for the db export and none for the text export).
UPDATE kernel SET op_type = NULL WHERE op_type IN ('N/A', '');
UPDATE kernel SET task_type = NULL WHERE task_type IN ('N/A', '');
UPDATE kernel SET accelerator_core = NULL WHERE accelerator_core IN ('N/A', '');
UPDATE communication_op SET op_type = NULL WHERE op_type IN ('N/A', '');
