"""Corpus names unique per workspace whatever their case; existing duplicates are renamed first ("Name (2)")."""

from __future__ import annotations

from typing import Any

import django.db.models.functions.text
from django.db import migrations, models

NAME_MAX = 120


def _free_name(name: str, taken: set[str]) -> str:
    """``name`` with the first suffix " (2)", " (3)", ... that no corpus of the workspace has (cut to fit)."""
    suffix = 2
    while True:
        tail = f" ({suffix})"
        candidate = name[: NAME_MAX - len(tail)] + tail
        if candidate.casefold() not in taken:
            return candidate
        suffix += 1


def rename_duplicates(apps: Any, schema_editor: Any) -> None:
    """Keep the oldest corpus of each case-insensitive name; rename the later ones with a numeric suffix."""
    corpus_model = apps.get_model("research", "Corpus")
    by_workspace: dict[int, list[Any]] = {}
    for corpus in corpus_model.objects.order_by("workspace_id", "id"):
        by_workspace.setdefault(corpus.workspace_id, []).append(corpus)
    for corpora in by_workspace.values():
        taken = {corpus.name.casefold() for corpus in corpora}
        seen: set[str] = set()
        for corpus in corpora:
            key = corpus.name.casefold()
            if key in seen:
                corpus.name = _free_name(corpus.name, taken)
                corpus.save(update_fields=["name"])
                key = corpus.name.casefold()
                taken.add(key)
            seen.add(key)


class Migration(migrations.Migration):
    dependencies = [
        ("research", "0003_runs"),
    ]

    operations = [
        migrations.RunPython(rename_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="corpus",
            constraint=models.UniqueConstraint(
                models.F("workspace"), django.db.models.functions.text.Lower("name"), name="corpus_unique_name_ci"
            ),
        ),
    ]
