"""A capture's metadata files, each a source of its own into ``capture_info`` (key, value as written):
msprof's ``start_info.{N}`` / ``end_info.{N}`` / ``info.json.{N}`` of a device
(:mod:`~warehouse.sources.capture.info_json`) and its ``.done`` marks
(:mod:`~warehouse.sources.capture.done_mark`); MindSpore's ``host_start.log.{N}``,
``min_cycle_counter_{N}.txt`` and ``step_trace_point_info.json`` go there too
(:mod:`~warehouse.sources.mindspore.host_start_log`, ``min_cycle_counter``, ``point_info``). Other sources read some of them beside their own input
(a PROF folder's timeline its start_info's clock, its rank its info.json); these sources keep what
they say, so no file of a capture is left unread.
"""
