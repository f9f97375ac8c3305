"""Layer and block segmentation on hand-made kernel sequences: exact layers and blocks."""

from warehouse.analysis.segment import Block, anchor_runs, segment

NORM, MM, ATT, ACT, MOE, SEL, ADD = (
    ("compute", "compute.norm"), ("matmul", "compute.matmul"), ("attention", "attention.flash_score"),
    ("compute", "compute.activation"), ("moe", "moe.dispatch"), ("selection", "selection.argmax"),
    ("compute", "compute.add"),
)


def run(rows):
    return segment([r[0] for r in rows], [r[1] for r in rows])


def shape(layers):
    return [(layer.kind, layer.first, layer.last, layer.blocks) for layer in layers]


def test_anchor_runs_merge_anchors_of_one_kind_until_a_block_head_separates_them():
    rows = [ADD, ATT, MM, ATT, MOE, ADD, MOE, ATT, NORM, ATT]
    assert anchor_runs([r[0] for r in rows], [r[1] for r in rows]) == [
        ("attention", 1, 3), ("moe", 4, 6), ("attention", 7, 7), ("attention", 9, 9)]


def test_dense_layers_start_at_their_pre_norm_and_split_attention_from_ffn_at_the_next_norm():
    layer = [NORM, MM, ATT, MM, NORM, MM, ACT, MM]
    rows = [ADD] + layer * 3 + [ADD]
    layers = run(rows)
    assert shape(layers) == [
        ("dense", 1, 8, [Block("attention", 1, 4), Block("ffn", 5, 8)]),
        ("dense", 9, 16, [Block("attention", 9, 12), Block("ffn", 13, 16)]),
        # the last layer ends as many rows after its attention as the layer before (6): row 24 is the tail
        ("dense", 17, 24, [Block("attention", 17, 20), Block("ffn", 21, 24)]),
    ]


def test_moe_layers_split_at_the_row_midpoint_between_last_attention_and_first_moe_row():
    layer = [NORM, MM, ATT, MM, MM, ACT, MOE, MM, MOE]
    layers = run(layer * 2)
    # attention row 2, first moe row 6: the moe block starts at row (2 + 6 + 1) // 2 = 4
    assert shape(layers) == [
        ("moe", 0, 8, [Block("attention", 0, 3), Block("moe", 4, 8)]),
        ("moe", 9, 17, [Block("attention", 9, 12), Block("moe", 13, 17)]),
    ]


def test_without_block_heads_layers_meet_at_the_row_midpoint_of_their_anchors():
    rows = [ATT, MM, MOE, MM, ATT, MM, MOE, ADD]
    layers = run(rows)
    # moe row 2, next attention row 4: the second layer starts at (2 + 4 + 1) // 2 = 3;
    # the first ends on its last anchor, so the second does too (row 7 is the tail)
    assert shape(layers) == [
        ("moe", 0, 2, [Block("attention", 0, 0), Block("moe", 1, 2)]),
        ("moe", 3, 6, [Block("attention", 3, 4), Block("moe", 5, 6)]),
    ]


def test_companion_layer_is_a_moe_run_without_attention():
    rows = [MOE, MM, MOE, NORM, ATT, MM, MOE]
    layers = run(rows)
    assert shape(layers) == [
        ("companion", 0, 2, [Block("moe", 0, 2)]),
        ("moe", 3, 6, [Block("attention", 3, 4), Block("moe", 5, 6)]),
    ]


def test_a_single_layer_ends_before_the_selection_row_that_closes_the_step():
    rows = [MM, NORM, ATT, MM, NORM, MM, SEL, MM]
    layers = run(rows)
    assert shape(layers) == [("dense", 1, 5, [Block("attention", 1, 3), Block("ffn", 4, 5)])]


def test_no_anchor_means_no_layer_and_the_count_is_never_guessed():
    assert run([ADD, NORM, ACT, ADD]) == []
    assert len(run([NORM, ATT] * 7)) == 7


def test_a_step_without_attention_or_moe_is_anchored_by_its_matmuls():
    """Each run of matmuls between block heads opens a matmul layer of one matmul block."""
    rows = [ADD, NORM, MM, ACT, MM, NORM, MM, ACT, MM, ADD, SEL]
    layers = run(rows)
    # heads at rows 1 and 5; the first layer ends 0 rows after its last anchor (row 4), so the second
    # does too (row 8): row 9 is the tail, row 10 the sampling
    assert shape(layers) == [
        ("matmul", 1, 4, [Block("matmul", 1, 4)]),
        ("matmul", 5, 8, [Block("matmul", 5, 8)]),
    ]


def test_matmuls_do_not_anchor_a_step_that_has_attention():
    rows = [NORM, MM, ATT, MM, NORM, MM, ACT, MM]
    assert shape(run(rows)) == [("dense", 0, 7, [Block("attention", 0, 3), Block("ffn", 4, 7)])]
