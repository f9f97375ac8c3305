"""The model layer: the one place that gives rows their meaning across inputs.

Sources write raw rows only. What a row means for the answers (which run and rank it
belongs to, which of several inputs of one rank answers a fact, what is stale once an
input is replaced) is decided here, and the ingest frame calls it after each input.
"""
