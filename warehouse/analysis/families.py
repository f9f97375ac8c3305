"""Attention families (seed 004 section 8): paper-aligned names from a block's kernel categories.

A family is never read off one kernel: FusedInferAttentionScore is ``attention.flash_score``
whether it serves MHA, GQA or MLA. The family of an attention block follows from the set of
its kernels' categories (``kernel_category``), by the decision order of the versioned data file
``warehouse/model/attention_families.csv``: csa, hca, dsa, mla, linear, gqa_or_mha, then attn
(unknown); an overlay (``+kvc`` for Hamming-distance KV pruning) is appended where its
categories are present. A new family or kernel is a line in a data file, not code.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from warehouse.model.classify import HERE as MODEL_DIR
from warehouse.model.classify import read_data_file

FAMILIES_FILE = MODEL_DIR / "attention_families.csv"


@dataclass(frozen=True)
class FamilyRule:
    """One line of the families file: a family (or an overlay's suffix) and its conditions."""

    family: str
    kind: str
    must_have: frozenset[str]
    must_not_have: frozenset[str]

    def holds(self, categories: frozenset[str]) -> bool:
        return self.must_have <= categories and not self.must_not_have & categories


@cache
def family_rules() -> tuple[tuple[FamilyRule, ...], tuple[FamilyRule, ...]]:
    """The families in decision order and the overlays, read once from the data file."""
    rules = [FamilyRule(row["family"], row["kind"], frozenset(row["must_have"].split()),
                        frozenset(row["must_not_have"].split()))
             for row in read_data_file(FAMILIES_FILE).rows]
    families = tuple(rule for rule in rules if rule.kind == "family")
    if not families or families[-1].must_have or families[-1].must_not_have:
        raise ValueError(f"{FAMILIES_FILE}: the last family must have no condition (the fallback)")
    return families, tuple(rule for rule in rules if rule.kind == "overlay")


def resolve(categories: Iterable[str]) -> str:
    """The family of a block whose kernels have these categories, with its overlays."""
    present = frozenset(categories)
    families, overlays = family_rules()
    family = next(rule.family for rule in families if rule.holds(present))
    return family + "".join(rule.family for rule in overlays if rule.holds(present))


def category_sets(conn: sqlite3.Connection) -> dict[str, frozenset[str]]:
    """Each primary category's further categories (``kernel_category_member``); absent: none."""
    sets: dict[str, set[str]] = {}
    for category, member in conn.execute("SELECT category, member FROM kernel_category_member"):
        sets.setdefault(category, set()).add(member)
    return {category: frozenset(members) for category, members in sets.items()}
