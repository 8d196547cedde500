"""Competitive-intelligence and ICP-check reports: templates, writer backends, citations, run-to-run diff."""
