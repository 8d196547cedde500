"""Workspaces and members: services, selectors, forms, views and the workspace socket."""
