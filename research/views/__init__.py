"""HTTP views, one module per area: workspaces, corpora, health."""
