"""The calibration hint's pytest side: record oracle/null runs, measure-commands (controller).

The store and the arithmetic live in :mod:`pytest_pau.report.calibration`; here is what
needs the run's state: which instances were selected, and the command line that selects
them again for ``oracle`` and ``null``.
"""

from __future__ import annotations

import shlex
import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

    from pytest_pau.models import Calibration
    from pytest_pau.plugin.state import PauRun

#: ``--pau-*`` options a measuring command leaves out besides the gates and the outputs
#: (:func:`_left_out`): the model (replaced), its endpoint, the shard (the command measures
#: the whole selection) and the gold control (the oracle's coder call is its own gold
#: control; null has nothing to attribute).
_LEFT_OUT = {"model", "api-base", "shard", "gold-control"}


def _left_out() -> set[str]:
    """Those of :data:`_LEFT_OUT`, every output (they would overwrite this run's), the gates
    and the baseline (an early stop would leave items unmeasured)."""
    from pytest_pau.settings.gates_and_outputs import GATE_OPTIONS, REPORT_OPTIONS

    return _LEFT_OUT | {spec.name for spec in (*GATE_OPTIONS, *REPORT_OPTIONS)}


def _pau_tokens(args: tuple[str, ...] | list[str]) -> list[str]:
    """The ``--pau-*`` options of ``args`` that decide scores or selection, as given."""
    from pytest_pau.settings.options import ALL_OPTIONS

    specs = {spec.name: spec for spec in ALL_OPTIONS}
    left_out = _left_out()
    kept: list[str] = []
    tokens = list(args)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if not token.startswith("--pau-"):
            continue
        name, has_value, _ = token[len("--pau-") :].partition("=")
        spec = specs.get(name)
        if spec is None:
            continue
        group = [token]
        if not has_value and not spec.flag and i < len(tokens):
            group.append(tokens[i])
            i += 1
        if name not in left_out:
            kept.extend(group)
    return kept


def measure_command(config: pytest.Config, model: str) -> str:
    """The command that runs ``model`` on this run's selection, with its judge and coder.

    Selection as pytest parsed it (paths, ``-k``, ``-m``, ``--deselect``, ``-o``), the
    ``--pau-*`` options as given (dataset, split, limit, judge, coder...) minus those in
    :data:`_LEFT_OUT` and the gates, ``-n`` when given, and ``--pau-model=<model>``.
    Options from the ini file need no repeating: the command runs in the same folder.
    """
    import pytest

    invocation = config.invocation_params
    parts = ["pytest"]
    if config.args_source == pytest.Config.ArgsSource.ARGS:  # not testpaths: those apply anyway
        parts += [a for a in config.args if a not in (".", str(invocation.dir))]
    if config.option.keyword:
        parts += ["-k", config.option.keyword]
    if config.option.markexpr:
        parts += ["-m", config.option.markexpr]
    for deselected in config.getoption("deselect", None) or ():
        parts += ["--deselect", deselected]
    for override in config.getoption("override_ini", None) or ():
        parts += ["-o", override]
    workers = config.getoption("numprocesses", None)
    if workers:
        parts += ["-n", str(workers)]
    parts += _pau_tokens(invocation.args)
    parts.append(f"--pau-model={model}")
    return shlex.join(parts)


def settle(state: PauRun) -> Calibration | None:
    """Record an oracle/null run's scores; the calibration when a scorer is embedded.

    Never raises for the store: a store that cannot be read or written leaves the
    figures unknown and says why (the run's results do not depend on it).
    """
    from pytest_pau.prompting import PROMPTS_VERSION
    from pytest_pau.report.calibration import (
        REFERENCES,
        CalibrationStore,
        calibrate,
        item_keys,
        reference_rows,
        scorer_identity,
        scorers_text,
    )

    s = state.settings
    embedded = bool(s.low_fidelity_roles())
    if s.model not in REFERENCES and not embedded:
        return None
    keys = item_keys(state.instances, dataset=s.dataset, split=s.split)
    identity = scorer_identity(s, prompts_version=PROMPTS_VERSION)
    store = CalibrationStore(s.cache_dir) if s.cache_dir is not None else None
    error: str | None = None if store is not None else "no cache folder"
    if store is not None and s.model in REFERENCES:
        try:
            rows = reference_rows(state.ordered_results(), keys, s.protocol)
            store.record(identity, s.model, rows)
        except (sqlite3.Error, OSError) as exc:
            error = f"could not record this run in {str(store.path)!r}: {exc}"
    if not embedded:
        return None
    ids = state.selected_ids or [r.id for r in state.ordered_results()]
    selected = [keys[i] for i in ids if i in keys]
    found = {}
    if store is not None:
        try:
            found = store.lookup(identity, selected)
        except (sqlite3.Error, OSError) as exc:
            read = f"could not read {str(store.path)!r}: {exc}"
            error = read if error is None else f"{error}; {read}"
    return calibrate(
        found,
        selected,
        state.intake.results,
        scorers=scorers_text(s, prompts_version=PROMPTS_VERSION),
        commands={m: measure_command(state.config, m) for m in REFERENCES},
        store_error=error,
        protocol=s.protocol,
    )
