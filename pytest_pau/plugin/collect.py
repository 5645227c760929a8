"""Collection helpers: instances as parametrized items, their markers, ``--pau-limit``.

Two ways an instance becomes an item, both through ``pytest_generate_tests`` on the
``pau_instance`` argument:

* the plugin's own test module (:mod:`pytest_pau.plugin.items`), injected as the collector
  ``pau`` so that ``pytest --pau-model=X`` works in any folder, even an empty one; its
  items are ``pau::test_pau[<source>/<id>]``;
* any user test function that takes ``pau_instance`` (or ``pau_result``). When at least
  one such function is collected the builtin module is not injected, so every instance
  is run by the user's tests only (never twice).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pytest_pau.models import Instance, OutputDisagreement
    from pytest_pau.plugin.markers import MarkerNames

#: The nodeid of the injected module: items read ``pau::test_pau[builtin/vowels_minus_consonants]``.
MODULE_NODEID = "pau"
ARGNAME = "pau_instance"


def params(instances: Sequence[Instance], names: MarkerNames) -> list[Any]:
    """``pytest.param`` objects for ``metafunc.parametrize``: id and markers per instance."""
    # The markers were registered in pytest_configure (names.lines), so this passes
    # --strict-markers.
    return [
        pytest.param(inst, marks=[getattr(pytest.mark, n) for n in names.of(inst)], id=inst.id)
        for inst in instances
    ]


def instance_of(item: pytest.Item) -> Instance | None:
    """The instance an item runs, or None for items that are not PAU items."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    instance: Instance | None = callspec.params.get(ARGNAME)
    return instance


def skipped(item: pytest.Item) -> bool:
    """Whether pytest will not run ``item``'s test: a ``skip``/``skipif`` mark, or an
    ``xfail(run=False)`` mark (unless ``--runxfail``). Its episode must not run ahead: an
    item pytest reports skipped at setup is out of the gates' selection, so a result it
    had anyway would put it in or out by timing.

    pytest decides this at setup (``_pytest.skipping``); the episode pool asks before, with
    pytest's own evaluation of the marks where it is importable, else by the marks alone.
    """
    try:
        from _pytest.skipping import evaluate_skip_marks, evaluate_xfail_marks
    except ImportError:  # pragma: no cover - every supported pytest has them
        return any(item.iter_markers("skip")) or any(item.iter_markers("skipif"))
    try:
        if evaluate_skip_marks(item) is not None:
            return True
        if item.config.getoption("runxfail", False):
            return False
        xfailed = evaluate_xfail_marks(item)
        return xfailed is not None and not xfailed.run
    except Exception:  # a condition that fails to evaluate: pytest reports it later
        return True


def uses_instances(items: Iterable[pytest.Item]) -> bool:
    """Whether any collected test takes ``pau_instance`` (directly or through fixtures)."""
    return any(instance_of(item) is not None for item in items)


class PauModule(pytest.Module):
    """The plugin's own test module, collected whatever the folder holds.

    It imports :mod:`pytest_pau.plugin.items` by name (not from a path under the rootdir) and
    collects exactly ``test_pau``, whatever ``python_functions`` says.
    """

    def _getobj(self) -> ModuleType:
        return importlib.import_module("pytest_pau.plugin.items")

    def istestfunction(self, obj: object, name: str) -> bool:
        return name == "test_pau" and callable(obj)

    def istestclass(self, obj: object, name: str) -> bool:
        return False


def builtin_items(session: pytest.Session) -> list[pytest.Item]:
    """Collect the plugin's module under ``session`` and return its items.

    Its path is the rootdir itself: pytest picks the conftest files whose hooks apply to
    a node by its path, so the rootdir's conftest hooks (``pytest_runtest_*``...) then
    apply to these items as to any test at the top of the project; and ``--lf`` counts
    the rootdir as a parent of the failed ``pau::...`` ids, so it never skips the module.
    """
    path = Path(session.config.rootpath)
    module = PauModule.from_parent(session, path=path, nodeid=MODULE_NODEID)
    return list(session.genitems(module))


def apply_limit(items: list[pytest.Item], limit: int, order: dict[str, int]) -> list[pytest.Item]:
    """Keep the items of the first ``limit`` instances, in dataset order; return the rest.

    Items that are not PAU items are always kept. Several tests on the same instance all
    stay (the limit counts instances, not items).

    Args:
        items: The selected items; changed in place.
        limit: ``--pau-limit``.
        order: Instance id -> position in the dataset.

    Returns:
        The deselected items.
    """
    ids = {inst.id for item in items if (inst := instance_of(item)) is not None}
    keep = set(sorted(ids, key=lambda i: order.get(i, len(order)))[:limit])
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        inst = instance_of(item)
        (kept if inst is None or inst.id in keep else dropped).append(item)
    items[:] = kept
    return dropped


def shuffle_items(items: list[pytest.Item], seed: int) -> None:
    """Put the PAU items in the seeded random order of ``--pau-early-stop``, in place.

    The order depends on the seed and the set of selected instances only
    (:func:`pytest_pau.stats.anytime.early_stop_order`), so every xdist worker
    computes the same one. Other tests keep their places; several tests of one instance
    stay together in their order.
    """
    from pytest_pau.stats.anytime import early_stop_order

    slots = [i for i, item in enumerate(items) if instance_of(item) is not None]
    ids = list(dict.fromkeys(inst.id for i in slots if (inst := instance_of(items[i]))))
    rank = {ids[j]: r for r, j in enumerate(early_stop_order(ids, seed))}
    ordered = sorted((items[i] for i in slots), key=lambda item: rank[_id_of(item)])
    for slot, item in zip(slots, ordered, strict=True):
        items[slot] = item


def _id_of(item: pytest.Item) -> str:
    inst = instance_of(item)
    assert inst is not None
    return inst.id


def no_match_hint(config: pytest.Config, loaded: int, dataset: str, split: str) -> str:
    """What to say when the run loaded ``loaded`` instances and its selection kept none.

    Names the selection the user gave (``-k``, ``-m``, ``--lf``, ``--deselect``, paths)
    and the command that lists the items, so an expression that matches nothing is not
    a silent ``0 selected``.
    """
    given = []
    if config.option.keyword:
        given.append(f"-k {config.option.keyword!r}")
    if config.option.markexpr:
        given.append(f"-m {config.option.markexpr!r}")
    if config.getoption("lf", False):
        given.append("--lf")
    if config.getoption("deselect", None):
        given.append("--deselect")
    args = [a for a in config.args if a not in (".", str(config.invocation_params.dir))]
    if args and not config.getoption("pyargs", False):
        given.append(" ".join(args))
    what = "matched " + " ".join(given) if given else "was selected"
    listing = ["pytest", f"--pau-model={config.getoption('pau_model') or 'oracle'}"]
    if dataset != "builtin":
        listing.append(f"--pau-dataset={dataset}")
    if split != "test":
        listing.append(f"--pau-split={split}")
    listing += ["--collect-only", "-q"]
    return (
        f"no PAU instance {what} (of {loaded} in {dataset}/{split}); "
        f"`{' '.join(listing)}` lists them with their ids and markers"
    )


#: Disagreeing stored outputs the run header lists under ``-v`` (the report has them all).
DISAGREEMENTS_SHOWN = 10


def disagreement_lines(found: Sequence[OutputDisagreement]) -> list[str]:
    """``-v`` header lines: the first stored outputs the gold code disagrees with."""
    lines = [
        f"pau: dataset: {d.id} {d.field}[{d.index}] input {d.input}: stored {d.stored}, "
        f"gold code {d.recomputed} ({d.reason})"
        for d in found[:DISAGREEMENTS_SHOWN]
    ]
    if len(found) > DISAGREEMENTS_SHOWN:
        lines.append(
            f"pau: dataset: ... {len(found) - DISAGREEMENTS_SHOWN} more in the JSON report "
            "(run.dataset_disagreements)"
        )
    return lines
