"""The batch form: a CSV of companies and the corpora to search for each."""

from __future__ import annotations

from typing import Any

from django import forms

from research.batches.csvfile import MAX_BYTES, MAX_ROWS
from research.models import Corpus, Workspace


class BatchForm(forms.Form):
    file = forms.FileField(
        label=f"Companies (CSV: a name column, optional domain and notes; at most {MAX_ROWS} rows)",
        error_messages={"required": "Choose a CSV file of companies."},
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv,text/plain"}),
    )
    corpora = forms.ModelMultipleChoiceField(
        queryset=Corpus.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label="Corpora to search",
        error_messages={"required": "Choose at least one corpus."},
    )

    def __init__(self, *args: Any, workspace: Workspace, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        corpora = self.fields["corpora"]
        assert isinstance(corpora, forms.ModelMultipleChoiceField)
        corpora.queryset = Corpus.objects.filter(workspace=workspace).order_by("name", "id")
        if not self.is_bound:
            self.initial.setdefault("corpora", [corpus.pk for corpus in corpora.queryset])

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(f"{upload.name} has {upload.size:,} bytes; at most {MAX_BYTES:,}.")
        return upload
