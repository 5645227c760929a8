"""The dataset layer: PAU instances from the builtin set, HumanEval, files or the hub.

``load_dataset(spec, split)`` accepts:

- ``builtin`` (default): our 240 methods, shipped in the package;
- ``humaneval``: the 164 HumanEval problems converted at load time (``humaneval`` extra);
- a path to a ``.jsonl`` or ``.parquet`` file in PAU's column format
  (see :mod:`pytest_pau.dataset.pau_format`);
- ``hf:OWNER/NAME``: through the ``datasets`` library (``hf`` extra);
- anything a loader added with :func:`register_loader` claims (checked first).

Every instance id is ``<source>/<local id>`` and stable across runs and machines. The
result is a :class:`LoadedDataset`, a ``list[Instance]`` whose ``info`` says how the example
outputs were read (``repr`` text or plain ``json`` values; see
:mod:`pytest_pau.dataset.output_format`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest_pau.dataset.execute import OutputRunner
from pytest_pau.dataset.load_info import DatasetInfo, LoadedDataset
from pytest_pau.dataset.output_format import OutputsMode, check_mode
from pytest_pau.errors import DatasetError
from pytest_pau.models import Example, Instance

__all__ = [
    "DatasetError",
    "DatasetInfo",
    "Example",
    "Instance",
    "LoadedDataset",
    "Loader",
    "OutputRunner",
    "OutputsMode",
    "load_dataset",
    "register_loader",
    "unregister_loader",
]

Loader = Callable[[str, str, Path], list[Instance]]
"""A custom loader: ``(spec, split, cache_dir) -> instances``."""

_LOADERS: list[tuple[str | Callable[[str], bool], Loader]] = []


def register_loader(match: str | Callable[[str], bool], loader: Loader) -> None:
    """Teach :func:`load_dataset` a new kind of spec; later registrations are tried first.

    Args:
        match: a prefix the spec starts with (``"mine:"``), or a predicate on the spec.
        loader: ``(spec, split, cache_dir) -> list[Instance]``.

    Example:
        >>> register_loader("toy:", lambda spec, split, cache_dir: [...])  # doctest: +SKIP
    """
    _LOADERS.insert(0, (match, loader))


def unregister_loader(loader: Loader) -> None:
    """Remove every registration of ``loader`` (tests use it to clean up)."""
    _LOADERS[:] = [(m, fn) for m, fn in _LOADERS if fn is not loader]


def _claims(match: str | Callable[[str], bool], spec: str) -> bool:
    return spec.startswith(match) if isinstance(match, str) else bool(match(spec))


def default_cache_dir() -> Path:
    """Where derived datasets are cached: ``<user cache>/datasets``."""
    from pytest_pau.paths import user_cache_dir

    return user_cache_dir() / "datasets"


def load_dataset(
    spec: str = "builtin",
    split: str = "test",
    *,
    cache_dir: Path | None = None,
    outputs: OutputsMode = "auto",
    runner: OutputRunner | None = None,
    protocol: str = "pytest-pau",
) -> LoadedDataset:
    """Load the instances a dataset spec names, validated, in a stable order.

    Most callers want :func:`pytest_pau.load_dataset`, which hands in the sandbox's runner.

    Args:
        spec: ``builtin``, ``humaneval``, a ``.jsonl``/``.parquet`` path, ``hf:OWNER/NAME``,
            or a spec a registered loader claims.
        split: the split to read (``test``; the builtin and humaneval sets have only that).
        cache_dir: where derived data (converted HumanEval) is cached; defaults to
            :func:`default_cache_dir`.
        runner: computes outputs for sets derived at load time (HumanEval's first load).
        outputs: how a PAU-format file or ``hf:`` set writes example outputs: ``repr``
            (repr text), ``json`` (plain values), ``reference`` (the PAU reference's layout,
            by position), or ``auto`` to detect it per file. The builtin and humaneval
            sets are written by pytest-pau (repr) and ignore it; a registered loader builds
            its own instances. ``recompute`` reads as ``auto``, then takes every output from
            the gold code run by ``runner`` (cached in ``cache_dir``), and lists the stored
            outputs that disagree in ``.info`` (:mod:`pytest_pau.dataset.recompute`).
        protocol: ``paper`` compares test outputs as the PAU reference's scorer does (the
            JSON-decoded cells of a reference-layout file); ``.info.notes`` says how many
            items that changes.

    Returns:
        The instances, a list; ``.info`` (:class:`DatasetInfo`) says how outputs were read.

    Raises:
        DatasetError: an unknown spec, a missing extra, or bad data, naming the file, the
            line or row, and the field; or outputs too inconsistent to detect.
    """
    mode = check_mode(outputs)
    cache = Path(cache_dir) if cache_dir is not None else None
    if mode == "recompute" and runner is None:
        raise DatasetError(
            "outputs='recompute' runs the gold code, and no runner was given: use "
            "pytest_pau.load_dataset (it runs them in the sandbox) or pass "
            "runner=pytest_pau.sandbox.batch.output_runner()"
        )
    found = _load(str(spec).strip(), split, cache, mode, runner)
    if mode == "recompute" and runner is not None:
        from pytest_pau.dataset.recompute import recompute

        found = recompute(found, runner, cache_dir=cache or default_cache_dir())
    if protocol == "paper":
        from pytest_pau.dataset.recompute import paper_expectations

        found = paper_expectations(found)
    return found


def _load(
    spec: str,
    split: str,
    cache: Path | None,
    mode: OutputsMode,
    runner: OutputRunner | None,
) -> LoadedDataset:
    """The instances as the spec's loader reads them (``load_dataset`` adds the rest)."""
    for match, loader in _LOADERS:
        if _claims(match, spec):
            found = loader(spec, split, cache or default_cache_dir())
            return found if isinstance(found, LoadedDataset) else LoadedDataset(found)
    if spec == "builtin":
        from pytest_pau.dataset.builtin import load_builtin

        return load_builtin(split)
    if spec == "humaneval":
        from pytest_pau.dataset.humaneval import load_humaneval

        return load_humaneval(split, cache_dir=cache or default_cache_dir(), runner=runner)
    if spec.startswith("hf:"):
        from pytest_pau.dataset.hf import load_hf

        return load_hf(spec, split, cache_dir=cache or default_cache_dir(), outputs=mode)
    if spec.endswith((".jsonl", ".parquet")) or (spec and Path(spec).expanduser().exists()):
        # An existing path of another kind (a folder, a .json file) gets load_file's message
        # about what it is, not "unknown dataset".
        from pytest_pau.dataset.files import load_file

        return load_file(spec, outputs=mode)
    raise DatasetError(
        f"unknown dataset {spec!r}: expected 'builtin', 'humaneval', a path to a .jsonl or "
        ".parquet file in PAU's column format, or 'hf:OWNER/NAME' "
        "(e.g. --pau-dataset=hf:DJ-Research/PAU-Benchmark)"
    )
