"""ICP checks of many companies at once: a CSV of companies, one ICP check run per row, their table."""
