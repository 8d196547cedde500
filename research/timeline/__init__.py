"""A company's timeline and price history across an investigation's runs (research/writing/timeline.py): the card on
the investigation's page and its Markdown and CSV downloads."""
