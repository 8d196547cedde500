"""Worker process concerns: queue layout, process signals (model warm-up) and the entry point."""
