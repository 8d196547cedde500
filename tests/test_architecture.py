"""The import graph: no cycle between modules of ``research`` and nothing outside ``research.bench`` imports it.

grimp reads every import statement of a module, those inside functions included (a function-local
import is how a cycle usually hides), and ``if TYPE_CHECKING:`` ones too (``build_graph`` keeps them
unless told ``exclude_type_checking_imports=True``). It records only imports written in the code: a
package is not taken to import its submodules, nor a submodule its package, unless a statement says so.
"""

from __future__ import annotations

import re
import textwrap
from itertools import pairwise
from pathlib import Path

import grimp
import pytest

PRODUCT = ("research", "context1_web", "worker")
BENCH = "research.bench"


def graph_of(*packages: str) -> grimp.ImportGraph:
    return grimp.build_graph(*packages, include_external_packages=False, cache_dir=None)


def import_cycles(graph: grimp.ImportGraph) -> list[tuple[str, ...]]:
    """Each import cycle once, as the chain of modules from its first (by name) back to it.

    An import ``a -> b`` lies on a cycle exactly when some chain of imports leads from ``b`` back to
    ``a``; the shortest such chain closes the cycle.
    """
    cycles = set()
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                ring = (importer, *back[:-1])
                start = ring.index(min(ring))  # the same cycle, found from each of its imports, is kept once
                cycles.add((*ring[start:], *ring[:start], ring[start]))
    return sorted(cycles, key=lambda cycle: (len(cycle), cycle))


def describe(graph: grimp.ImportGraph, cycle: tuple[str, ...]) -> str:
    """``a -> b (a.py line 3: import b) -> ...``: where each import of the cycle is written."""
    hops = []
    for importer, imported in pairwise(cycle):
        details = graph.get_import_details(importer=importer, imported=imported)
        where = f" (line {details[0]['line_number']}: {details[0]['line_contents']})" if details else ""
        hops.append(f"{importer} -> {imported}{where}")
    return "\n  ".join(hops)


def importers_from_outside(graph: grimp.ImportGraph, package: str) -> set[tuple[str, str]]:
    """(importer, imported) for every import of ``package`` or its modules by a module outside it."""
    inside = {package, *graph.find_descendants(package)}
    return {
        (importer, imported)
        for imported in inside
        for importer in graph.find_modules_that_directly_import(imported)
        if importer not in inside
    }


def test_research_has_no_import_cycle() -> None:
    graph = graph_of("research")
    cycles = import_cycles(graph)
    assert not cycles, "import cycles in research:\n" + "\n".join(f"  {describe(graph, c)}" for c in cycles)


def test_nothing_outside_the_benchmarks_imports_them() -> None:
    """A second guard beside import-linter's contract: the product imports nothing from research.bench."""
    graph = graph_of(*PRODUCT)
    assert graph.find_descendants(BENCH), "research.bench has no modules: is the graph right?"
    assert importers_from_outside(graph, BENCH) == set()


# --- the checks can fail ------------------------------------------------------------------------------
def _package(root: Path, name: str, modules: dict[str, str]) -> None:
    (root / name).mkdir()
    (root / name / "__init__.py").write_text("")
    for module, source in modules.items():
        (root / name / f"{module}.py").write_text(textwrap.dedent(source))


def test_a_cycle_closed_by_a_function_local_import_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _package(
        tmp_path,
        "cycle_probe",
        {
            "a": "from cycle_probe import b\n",
            "b": "from cycle_probe.c import value\n",
            "c": "value = 1\n\ndef later():\n    from . import a\n    return a\n",
            "d": "import cycle_probe.a\n",  # imports the cycle, is not on it
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = graph_of("cycle_probe")
    cycles = import_cycles(graph)
    assert cycles == [("cycle_probe.a", "cycle_probe.b", "cycle_probe.c", "cycle_probe.a")]
    assert "cycle_probe.c -> cycle_probe.a (line 4: from . import a)" in describe(graph, cycles[0])


def test_a_package_without_cycles_has_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _package(tmp_path, "acyclic_probe", {"a": "import acyclic_probe.b\n", "b": "def f():\n    import json\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles(graph_of("acyclic_probe")) == []


def test_an_import_of_the_benchmarks_from_outside_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _package(tmp_path, "bench_probe", {"app": "def run():\n    from bench_probe.bench import baseline\n"})
    (tmp_path / "bench_probe" / "bench").mkdir()
    (tmp_path / "bench_probe" / "bench" / "__init__.py").write_text("")
    (tmp_path / "bench_probe" / "bench" / "baseline.py").write_text("import bench_probe.bench\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = importers_from_outside(graph_of("bench_probe"), "bench_probe.bench")
    assert found == {("bench_probe.app", "bench_probe.bench.baseline")}


def test_no_formatter_exemptions_remain() -> None:
    """Code is formatted as the formatter wants it (issue 10): no formatter exemption comment anywhere."""
    root = Path(__file__).resolve().parent.parent
    marker = "fmt: " + "skip", "fmt: " + "off"  # (spelled apart, so this file does not hold them)
    found = [
        f"{path.relative_to(root)}:{number}"
        for folder in ("research", "context1_web", "worker", "tests")
        for path in (root / folder).rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if any(item in line for item in marker)
    ]
    assert found == []


# A branch on the run's kind: ``template == "icp"``, ``"question" != run.template``, in Python or a template.
KIND_BRANCH = re.compile(r"""\btemplate\s*[!=]=\s*["']|["']\s*[!=]=\s*[\w.]*\btemplate\b""")
KINDS_HOME = Path("research", "reporting", "kinds")


def kind_branches(root: Path) -> list[str]:
    """``path:line`` of each branch on a run's template outside the kinds' own modules."""
    files = [
        *(path for folder in ("research", "context1_web", "worker") for path in (root / folder).rglob("*.py")),
        *(root / "templates").rglob("*.html"),
    ]
    return [
        f"{path.relative_to(root)}:{number}"
        for path in files
        if not path.relative_to(root).is_relative_to(KINDS_HOME)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if KIND_BRANCH.search(line)
    ]


def test_nothing_outside_the_kinds_branches_on_a_runs_template() -> None:
    """What differs between a question, a competitor report, a prospect brief and an ICP check is said by the
    kinds (research/reporting/kinds); code and pages ask the run's kind (``kind_of``, ``|run_kind``)."""
    assert kind_branches(Path(__file__).resolve().parent.parent) == []


def test_a_branch_on_a_runs_template_is_found(tmp_path: Path) -> None:
    (tmp_path / "research" / "runs").mkdir(parents=True)
    (tmp_path / "research" / "reporting" / "kinds").mkdir(parents=True)
    (tmp_path / "templates").mkdir()
    (tmp_path / "research" / "runs" / "a.py").write_text('x = 1\nif run.template == "icp":\n    pass\n')
    (tmp_path / "research" / "reporting" / "kinds" / "icp.py").write_text('if run.template == "icp":\n    pass\n')
    (tmp_path / "templates" / "p.html").write_text("""{% if "question" != view.report.template %}x{% endif %}\n""")
    assert kind_branches(tmp_path) == ["research/runs/a.py:2", "templates/p.html:1"]


def views_imported_by_other_features(graph: grimp.ImportGraph, root: str = "research") -> list[tuple[str, str]]:
    """(importer, views module) for each import of a feature's views from outside that feature but a URL module:
    a page draws another feature's card through that feature's template tags (research/platform/panels.py)."""
    found = []
    for module in graph.modules:
        parts = module.split(".")
        if len(parts) < 3 or parts[0] != root or parts[2] != "views":
            continue
        feature = ".".join(parts[:2])
        found += [
            (importer, module)
            for importer in graph.find_modules_that_directly_import(module)
            if not importer.startswith(f"{feature}.") and not importer.endswith(".urls")
        ]
    return sorted(found)


def test_no_feature_uses_another_features_views_as_a_library() -> None:
    assert views_imported_by_other_features(graph_of(*PRODUCT)) == []


def test_a_view_used_as_a_library_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _package(tmp_path, "views_probe", {"urls": "from views_probe.workspaces import views\n"})
    _package(tmp_path / "views_probe", "workspaces", {"views": "def icp_context():\n    return {}\n"})
    _package(tmp_path / "views_probe", "batches", {"views": "from views_probe.workspaces.views import icp_context\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    found = views_imported_by_other_features(graph_of("views_probe"), root="views_probe")
    assert found == [("views_probe.batches.views", "views_probe.workspaces.views")]
