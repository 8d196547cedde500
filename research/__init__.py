"""The research app: workspaces, corpora, runs and reports (Django side), plus framework-free packages."""
