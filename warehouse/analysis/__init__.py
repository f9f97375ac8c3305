"""Analyses computed over ingested rows: kernel classification, cross-rank views, advice."""
