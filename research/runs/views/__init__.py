"""Run views: JSON endpoints (api) and HTML pages (pages)."""
