"""The layout tells the architecture: imports flow one way (ARCHITECTURE.md), checked here.

dataset -> sandbox -> agent -> scoring -> report; ``train`` reuses them and nothing but the
CLI imports it. Below every stage sit the shared modules (models, errors, paths, settings
and options, the prompting utilities, the llm service); they never import a stage.
Imports inside functions and under ``TYPE_CHECKING`` count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pytest_pau

PACKAGE = Path(pytest_pau.__file__).parent
STAGES = ("dataset", "sandbox", "agent", "scoring", "report", "train")
SHARED = (
    "_version",
    "errors",
    "paths",
    "models",
    "option_values",
    "options",
    "settings",
    "prompting",
    "llm",
)
#: What each shared part may import (besides the standard library and third parties).
SHARED_MAY_IMPORT = {
    "_version": set(),
    "errors": set(),
    "paths": {"_version"},
    "models": set(),
    "option_values": set(),
    "options": {"option_values"},
    "settings": {"errors", "option_values", "options"},
    "prompting": set(),
    "llm": set(SHARED) - {"llm"},  # every other shared part
}
#: train reuses every earlier stage; report is read by nobody but train and the top level.
STAGE_MAY_IMPORT = {
    stage: set(STAGES[:i]) | set(SHARED) for i, stage in enumerate(STAGES) if stage != "train"
}
STAGE_MAY_IMPORT["train"] = set(STAGES[:-1]) | set(SHARED) | {""}  # "" = the facade


def _part(module: str) -> str:
    """``pytest_pau.scoring.judge`` -> ``scoring``; ``pytest_pau`` -> ``""``."""
    rest = module.removeprefix("pytest_pau").lstrip(".")
    return rest.split(".", 1)[0]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("pytest_pau"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "pytest_pau":
                for alias in node.names:
                    is_module = (PACKAGE / f"{alias.name}.py").exists() or (
                        PACKAGE / alias.name
                    ).is_dir()
                    found.add(f"pytest_pau.{alias.name}" if is_module else "pytest_pau")
            elif node.module.startswith("pytest_pau"):
                found.add(node.module)
    return found


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        out.append((rel.parts[0].removesuffix(".py"), path))
    return out


@pytest.mark.parametrize(("part", "path"), _modules(), ids=lambda v: str(v))
def test_imports_flow_one_way(part: str, path: Path) -> None:
    if part in STAGE_MAY_IMPORT:
        allowed = STAGE_MAY_IMPORT[part] | {part}
    elif part in SHARED_MAY_IMPORT:
        allowed = SHARED_MAY_IMPORT[part] | {part}
    else:
        return  # the top level: plugin, _session, cli, testing, ... may import anything
    bad = sorted(m for m in _imports(path) if _part(m) not in allowed)
    assert not bad, (
        f"{path.relative_to(PACKAGE)} ({part}) imports {bad}; allowed: {sorted(allowed)}"
    )


def test_nothing_but_the_cli_imports_train() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for part, path in _modules()
        if part not in ("train", "cli") and any(_part(m) == "train" for m in _imports(path))
    ]
    assert not offenders
