"""The run form: the question, the corpora of this workspace to search, and the run's limits."""

from __future__ import annotations

from typing import Any, TypedDict

from django import forms

from research.models import Corpus, RunTemplate, Workspace
from research.platform.composition import web_offered, writer_choices
from research.reporting.kinds import KINDS, kind_of
from research.runs import limits, services


class RunInputs(TypedDict):
    """A valid form's values, as ``services.run_start`` takes them."""

    question: str
    corpora: list[Corpus]
    template: str
    rollouts: int
    budget: int
    max_turns: int
    company: str
    aspects: list[str]
    writer: str
    web: bool


WRITER_LABELS = {"extractive": "extractive (offline)", "openai": "openai (writer model)"}


def _limit_field(limit: limits.Limit, label: str) -> forms.IntegerField:
    return forms.IntegerField(min_value=limit.low, max_value=limit.high, initial=limit.default, label=label)


class RunForm(forms.Form):
    """Start a research run: the question, the corpora of this workspace to search, and the run's limits."""

    # No maxlength on the box: a browser cuts a longer paste silently; the page counts characters as the
    # member types (static/js/app.js) and the service refuses a question over the limit, saying by how much.
    question = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "data-limit": limits.QUESTION_MAX, "data-counter": "question-count"}),
        label="Question",
        strip=False,
        required=False,  # a report needs a company instead; the service says which is missing
    )
    corpora = forms.ModelMultipleChoiceField(
        queryset=Corpus.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label="Corpora to search",
        error_messages={"required": "Choose at least one corpus."},
    )
    template = forms.ChoiceField(choices=RunTemplate.choices, initial=RunTemplate.QUESTION, label="Template")
    company = forms.CharField(required=False, max_length=200, label="Company (reports)")
    aspects = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "e.g. EU data residency"}),
        label="Extra aspects (reports; one per line, at most 3)",
    )
    rollouts = _limit_field(limits.ROLLOUTS, "Rollouts (run in parallel, rankings fused)")
    budget = _limit_field(limits.BUDGET, "Token budget per rollout")
    max_turns = _limit_field(limits.MAX_TURNS, "Maximum turns per rollout")
    writer = forms.ChoiceField(
        choices=(),
        label="Writer",
        required=False,
        help_text="extractive quotes sentences of the documents; openai is the writer model at WRITER_BASE_URL",
    )
    web = forms.BooleanField(required=False, label="Search the web too (web_search, fetch_url)")

    def __init__(self, *args: Any, workspace: Workspace, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.workspace = workspace
        corpora = self.fields["corpora"]
        assert isinstance(corpora, forms.ModelMultipleChoiceField)
        corpora.queryset = Corpus.objects.filter(workspace=workspace).order_by("name", "id")
        writer = self.fields["writer"]
        assert isinstance(writer, forms.ChoiceField)
        writer.choices = [(name, WRITER_LABELS.get(name, name)) for name in writer_choices()]
        writer.initial = writer_choices()[0]
        self.web_offered = web_offered()
        self.fields["web"].initial = self.web_offered and workspace.web_default
        if not self.web_offered:
            self.fields["web"].disabled = True
        if not self.is_bound:  # a new run searches every corpus of the workspace unless told otherwise
            self.initial.setdefault("corpora", [corpus.pk for corpus in corpora.queryset])

    def clean(self) -> dict[str, Any]:
        """The fields a template needs: a free question its question, a report its company."""
        data = super().clean() or {}
        template = data.get("template")
        question = services.question_error(data["question"]) if "question" in data else None
        if template in KINDS and not kind_of(template).about_company and question is not None:
            self.add_error("question", question)
        company = services.subject_error(template, data["company"]) if template and "company" in data else None
        if company is not None:
            self.add_error("company", company)
        return data

    def run_inputs(self) -> RunInputs:
        """The cleaned values, for ``services.run_start(actor=..., **form.run_inputs())``."""
        data = self.cleaned_data
        return RunInputs(
            question=data["question"],
            corpora=list(data["corpora"]),
            template=data["template"],
            rollouts=data["rollouts"],
            budget=data["budget"],
            max_turns=data["max_turns"],
            company=data["company"],
            aspects=[line.strip() for line in data["aspects"].splitlines() if line.strip()],
            writer=data.get("writer") or "",
            web=bool(data.get("web")),
        )
