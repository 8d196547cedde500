"""Forms of the corpus pages: a new corpus with its parsing options, changing those options, renaming it, an upload
of files."""

from __future__ import annotations

from typing import Any

from django import forms


class ParsingForm(forms.Form):
    """How the corpus reads CSV and JSON files (``Corpus.parse_options``): set with a new corpus, changed on its
    page (a file already ingested takes a change when it is ingested again)."""

    csv_mode = forms.ChoiceField(
        choices=[("row", "one document per row"), ("table", "one document per table (or per group)")],
        initial="row",
        required=False,
        label="CSV files",
    )
    csv_title_column = forms.CharField(max_length=200, required=False, label="CSV column that titles a row (optional)")
    csv_group_by = forms.CharField(max_length=200, required=False, label="CSV column to group rows by (table mode)")
    json_title_field = forms.CharField(
        max_length=200, initial="title", required=False, label="JSON field holding the title"
    )
    json_text_field = forms.CharField(
        max_length=200, initial="text", required=False, label="JSON field holding the text"
    )
    json_metadata_fields = forms.CharField(
        max_length=1000, required=False, label="JSON fields kept as metadata (comma-separated)"
    )

    def parse_options(self) -> dict[str, object]:
        """The corpus's parsing options from the cleaned form (blank optional fields left out)."""
        data = self.cleaned_data
        options: dict[str, object] = {
            "csv_mode": data["csv_mode"] or "row",
            "json_title_field": data["json_title_field"].strip() or "title",
            "json_text_field": data["json_text_field"].strip() or "text",
        }
        for key in ("csv_title_column", "csv_group_by"):
            if data[key].strip():
                options[key] = data[key].strip()
        fields = [name.strip() for name in data["json_metadata_fields"].split(",") if name.strip()]
        if fields:
            options["json_metadata_fields"] = fields
        return options

    @staticmethod
    def initial_of(parse_options: dict[str, object]) -> dict[str, object]:
        """The form's initial values from a corpus's stored options."""
        initial = {key: value for key, value in parse_options.items() if key != "json_metadata_fields"}
        metadata = parse_options.get("json_metadata_fields")
        if isinstance(metadata, list | tuple):
            initial["json_metadata_fields"] = ", ".join(str(name) for name in metadata)
        return initial


class CorpusForm(ParsingForm):
    name = forms.CharField(max_length=120, label="Corpus name")
    description = forms.CharField(max_length=2000, required=False, label="Description (optional)")
    field_order = ["name", "description"]


class CorpusRenameForm(forms.Form):
    name = forms.CharField(max_length=120, label="Corpus name")
    description = forms.CharField(max_length=2000, required=False, label="Description (optional)")


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """A file field that accepts several files (Django's documented recipe). Empty files pass: one empty file
    must not refuse the whole upload; the service stores it as a failed row with its reason."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        kwargs.setdefault("allow_empty_file", True)
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)] if data else []


class UploadForm(forms.Form):
    upload = MultipleFileField(
        label="Files or .zip archives",
        help_text="Text, Markdown, HTML, PDF, DOCX, e-mail (.eml, .mbox), CSV, JSON/JSONL, or a .zip of them.",
    )
