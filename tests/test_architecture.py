"""The layout tells the architecture: the import-linter contracts of ``pyproject.toml`` hold.

The contracts (``[tool.importlinter]``) say it once: one direction of flow (dataset ->
sandbox -> agent -> scoring -> report; train reuses them; ``llm``, ``settings``, ``stats``,
``prompting``, ``models`` and ``errors`` below every stage), nothing but the command line
imports ``train``, only the plugin, the command line and the test helpers touch pytest, the
statistics do no IO, and no import circle at any depth. Imports inside functions and under
``TYPE_CHECKING`` count too. ARCHITECTURE.md draws the same picture.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import pytest_pau

ROOT = Path(pytest_pau.__file__).parent.parent
PACKAGE = ROOT / "pytest_pau"


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    # lint-imports reads [tool.importlinter] of the pyproject.toml in its folder.
    code = "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_the_import_contracts_hold() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


@pytest.mark.slow
def test_a_report_module_importing_the_plugin_breaks_the_contract(tmp_path: Path) -> None:
    # The contract is not vacuous: a copy of the package whose report imports the plugin
    # (the kind of shortcut it exists to stop) fails the check, naming the import.
    import shutil

    copy = tmp_path / "tree"
    shutil.copytree(PACKAGE, copy / "pytest_pau", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    fmt = copy / "pytest_pau" / "report" / "fmt.py"
    fmt.write_text(fmt.read_text() + "\nfrom pytest_pau.plugin import state  # noqa\n")
    result = _lint_imports(copy)
    assert result.returncode != 0
    assert "pytest_pau.report.fmt -> pytest_pau.plugin.state" in result.stdout


def test_the_package_root_holds_only_the_entry_points() -> None:
    # Everything else lives in a part with a name that says it (plugin/, settings/, ...).
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert root == [
        "__init__.py",
        "__main__.py",
        "_version.py",
        "errors.py",
        "hookspecs.py",
        "paths.py",
        "testing.py",
    ], textwrap.fill(f"modules at the package root: {root}")
