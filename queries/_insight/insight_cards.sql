-- title: Insight cards
-- description: The ingested profiles a seed-000 client can name with cardId/rankId: every
--     source read without error that has a card (an operator profile's operator name).
-- column source_id: Identifier of the source (source.id).
-- column card: The card name (source.card).
-- column path: Path of the input file.
-- column kind: Input format that read it (op_profile, ...).
-- column rank_id: Rank of the input, when known.
select id as source_id, card, path, kind, rank_id
from source
where status = 'ok' and card is not null
order by id
