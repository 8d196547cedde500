"""The corpus-name migration renames existing case-insensitive duplicates before it adds the constraint."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("research", "0003_runs")]


@pytest.mark.django_db(transaction=True)
def test_it_renames_duplicates_with_a_free_suffix_and_keeps_the_oldest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    workspace_model, corpus_model = old.get_model("research", "Workspace"), old.get_model("research", "Corpus")
    first, second = (workspace_model.objects.create(name=n, slug=n) for n in ("first", "second"))
    rows = [
        (first, "Demo corpus", "demo-corpus"),
        (first, "demo CORPUS", "demo-corpus-2"),
        (first, "Demo corpus (2)", "taken"),  # the first suffix is already a name
        (first, "DEMO CORPUS", "demo-corpus-3"),
        (first, "x" * 120, "long"),
        (first, "X" * 120, "long-2"),
        (second, "Demo corpus", "demo-corpus"),  # another workspace: not a duplicate
    ]
    for workspace, name, slug in rows:
        corpus_model.objects.create(workspace=workspace, name=name, slug=slug, index_key=f"{workspace.pk}{slug}")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    new = MigrationExecutor(connection).loader.project_state(executor.loader.graph.leaf_nodes()).apps
    names = dict(new.get_model("research", "Corpus").objects.values_list("index_key", "name"))
    assert names[f"{first.pk}demo-corpus"] == "Demo corpus"
    assert names[f"{first.pk}demo-corpus-2"] == "demo CORPUS (3)"
    assert names[f"{first.pk}taken"] == "Demo corpus (2)"
    assert names[f"{first.pk}demo-corpus-3"] == "DEMO CORPUS (4)"
    assert names[f"{first.pk}long"] == "x" * 120
    assert names[f"{first.pk}long-2"] == "X" * 116 + " (2)"
    assert names[f"{second.pk}demo-corpus"] == "Demo corpus"
