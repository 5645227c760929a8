"""The beginning of a run, the counterpart of :mod:`~pytest_pau.plugin.finish`: its
instances (:func:`load_instances`), the checks before any item on the controller
(:func:`prepare`), and what the controller hands each xdist worker (:func:`worker_input`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import ConfigError
from pytest_pau.models import Instance
from pytest_pau.plugin.evaluate import LEDGER_KEY, check_remote_budget, ledger_path
from pytest_pau.plugin.stop import RunStop, make_run_dir

if TYPE_CHECKING:
    from pytest_pau.plugin.state import PauRun


def load_instances(run: PauRun) -> list[Instance]:
    """Ask ``pytest_pau_load_dataset`` implementations (ours runs last) for the instances."""
    s = run.settings
    instances = run.config.hook.pytest_pau_load_dataset(
        config=run.config, spec=s.dataset, split=s.split
    )
    if instances is None:
        raise ConfigError(f"no loader returned instances for --pau-dataset={s.dataset!r}")
    seen: set[str] = set()
    for inst in instances:
        if not isinstance(inst, Instance):
            raise ConfigError(
                f"pytest_pau_load_dataset returned {type(inst).__name__!r} items; "
                "expected pytest_pau.Instance objects"
            )
        if inst.id in seen:
            raise ConfigError(f"--pau-dataset={s.dataset!r}: duplicate instance id {inst.id!r}")
        seen.add(inst.id)
    # How the outputs were read; a conftest hook's plain list has no .info.
    run.dataset_info = getattr(instances, "info", None)
    if run.dataset_info is None or not run.dataset_info.checked:
        from pytest_pau.sandbox.runnable import check_instances

        check_instances(instances, what=s.dataset, backend=s.sandbox)
    run.instances = list(instances)
    run.order = {inst.id: i for i, inst in enumerate(run.instances)}
    return run.instances


def prepare(run: PauRun) -> None:
    """Checks before any item, on the controller (or the single process)."""
    if run.is_worker:
        return
    from pytest_pau.errors import CacheWarning
    from pytest_pau.files.guard import check_outputs
    from pytest_pau.plugin import preflight
    from pytest_pau.plugin.notices import warn
    from pytest_pau.settings.env_vars import check_env

    s = run.settings
    check_env()
    preflight.check_concurrency(s)
    junitxml = getattr(run.config.option, "xmlpath", None)
    inifile = run.config.inipath
    check_outputs(
        preflight.output_args(s, run.resolve, junitxml=junitxml),
        preflight.input_args(
            s, run.resolve, inifile=None if inifile is None else Path(inifile).resolve()
        ),
    )
    preflight.check_plots_extra(s)
    check_remote_budget(run.config, s)
    custom_agent = bool(run.config.hook.pytest_pau_make_agent.get_hookimpls())
    preflight.check_paper_roles(s)
    preflight.check_self_coder(s)
    preflight.check_credentials(s, custom_agent=custom_agent)
    run.cache_warning = preflight.prepare_cache(s)
    if run.cache_warning is not None:
        warn(run.cache_warning, CacheWarning)
    run.endpoint_notes = preflight.endpoint_notes(s)
    run.baseline = preflight.read_baseline(run)
    run.run_dir = make_run_dir()
    run.stop = RunStop(run.run_dir / "stop")


def worker_input(run: PauRun, run_id: str | None) -> dict[str, Any]:
    """What the controller hands an xdist worker: the stop file, the ledger, the cache's
    finished items for ``--pau-shard``."""
    from pytest_pau.plugin.shard import CACHED_KEY
    from pytest_pau.plugin.stop import STOP_FILE_KEY

    out: dict[str, Any] = {}
    if run.stop.path is not None:
        out[STOP_FILE_KEY] = str(run.stop.path)
    if run_id:
        out[LEDGER_KEY] = str(ledger_path(run, str(run_id)))
    if run.settings.shard is not None:
        out[CACHED_KEY] = list(run.shard.cached)
    return out
