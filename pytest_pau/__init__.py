"""pytest-pau: the PAU (Python API Understanding) benchmark as a pytest suite."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau._version import __version__

if TYPE_CHECKING:
    from pytest_pau.dataset import LoadedDataset, OutputsMode
    from pytest_pau.models import CallResult, Example, Instance, InstanceResult

#: Imported on first use: pytest imports this package first when it loads the plugin, and
#: the pydantic models take most of that time (the plugin's Ctrl-C guard starts after it).
_MODELS = frozenset({"CallResult", "Example", "Instance", "InstanceResult"})

__all__ = [
    "CallResult",
    "Example",
    "Instance",
    "InstanceResult",
    "__version__",
    "load_dataset",
]


def load_dataset(
    spec: str = "builtin",
    split: str = "test",
    *,
    cache_dir: Path | None = None,
    outputs: OutputsMode = "auto",
    protocol: str = "pytest-pau",
) -> LoadedDataset:
    """Load instances from a dataset spec (see :func:`pytest_pau.dataset.load_dataset`).

    Sets whose outputs are computed at load time (HumanEval, on its first load, and any
    set with ``outputs="recompute"``) run their methods in the wasm sandbox, the one the
    benchmark uses. Every instance is checked against that sandbox
    (:func:`pytest_pau.sandbox.runnable.check_instances`): its code compiles, it has
    held-back examples, and the sandbox reads every input.

    Raises:
        DatasetError: naming the file and line, or the instance, the field and the example.
    """
    from pytest_pau.dataset import load_dataset as _load
    from pytest_pau.sandbox.batch import output_runner
    from pytest_pau.sandbox.runnable import check_instances

    loaded = _load(
        spec,
        split,
        cache_dir=cache_dir,
        outputs=outputs,
        runner=output_runner(),
        protocol=protocol,
    )
    if not loaded.info.checked:
        check_instances(loaded, what=spec)
    return loaded


def __getattr__(name: str) -> Any:
    if name in _MODELS:
        import pytest_pau.models as models

        value = getattr(models, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pytest_pau' has no attribute {name!r}")
