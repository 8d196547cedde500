"""Webhooks: a signed POST to the address a member gave when their run (or each run of a schedule) finishes or
fails, sent by the web fetcher's address rules and retried with backoff; each attempt is kept on the run."""
