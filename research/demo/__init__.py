"""The demo account, workspace and corpus that the embedded default seeds."""
