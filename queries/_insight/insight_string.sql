-- title: Insight string
-- description: The text of one interned string (names and categories of slices).
-- param string_id (integer, required): The string (string.id).
-- column value: The text.
select value
from string
where id = :string_id
