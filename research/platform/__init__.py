"""Shared Django pieces: composition root, realtime publishing, health, warm-ups, view helpers."""
