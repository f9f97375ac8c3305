-- title: Insight cards
-- description: The ingested profiles a seed-000 client can name with cardId/rankId: every
--     source read without error that has a card (an operator profile's operator name).
-- column source_id: Identifier of the source (source.id).
-- column card: The card name (source.card).
-- column path: Path of the input file.
-- column kind: Input format that read it (op_profile, ...).
-- column rank_id: Rank of the input, when known.
-- column run_root: The root of the input's run (run.root: the folder imported, or the file), when it has one.
select s.id as source_id, s.card, s.path, s.kind, s.rank_id, r.root as run_root
from source as s
left join run as r on r.run_id = s.run_id
where s.status = 'ok' and s.card is not null
order by s.id
