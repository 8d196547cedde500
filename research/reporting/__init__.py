"""The Django side of answers and reports: evidence from a run, the writer's call, storage, pages and exports."""
