"""Research runs on the Django side: starting, claiming under a lease, the event journal, sweeping, cancelling."""
