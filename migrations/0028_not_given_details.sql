-- One encoding of "not given" for a kernel's shapes, data types and formats and an HCCL task's
-- types (issue 34, after 0025): a level-0 rank db writes the string 'N/A' into COMPUTE_TASK_INFO's
-- input and output shapes, data types and formats and COMMUNICATION_TASK_INFO's taskType, and the
-- enums' 'N/A' (65534) into its RDMA, transport, data and link types, where the text export of
-- the same level writes none or N/A cells, which its sources read as NULL. The rank db source now
-- reads them as NULL too (and an operator's data type 'N/A'); the rows an older ingest stored are
-- moved here, so an upgraded warehouse answers as a fresh one.
UPDATE kernel SET input_shapes = NULL WHERE input_shapes IN ('N/A', '');
UPDATE kernel SET input_dtypes = NULL WHERE input_dtypes IN ('N/A', '');
UPDATE kernel SET input_formats = NULL WHERE input_formats IN ('N/A', '');
UPDATE kernel SET output_shapes = NULL WHERE output_shapes IN ('N/A', '');
UPDATE kernel SET output_dtypes = NULL WHERE output_dtypes IN ('N/A', '');
UPDATE kernel SET output_formats = NULL WHERE output_formats IN ('N/A', '');
UPDATE communication_task SET task_type = NULL WHERE task_type IN ('N/A', '');
UPDATE communication_task SET rdma_type = NULL WHERE rdma_type = 'N/A';
UPDATE communication_task SET transport_type = NULL WHERE transport_type = 'N/A';
UPDATE communication_task SET data_type = NULL WHERE data_type = 'N/A';
UPDATE communication_task SET link_type = NULL WHERE link_type = 'N/A';
UPDATE communication_op SET data_type = NULL WHERE data_type = 'N/A';
