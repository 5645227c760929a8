"""What a run checks before its first item, so that a mistake costs no model call.

Each check either raises :class:`~pytest_pau.errors.ConfigError` (the plugin turns it into a
usage error naming the option) or returns notes for the summary.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pau.errors import ConfigError
from pytest_pau.files.guard import PathArg, real
from pytest_pau.llm.credentials import Role, missing_keys
from pytest_pau.models.paper import PAPER, PAPER_CODER, PAPER_JUDGE
from pytest_pau.settings.values import LOCAL_MODELS, PAPER_CODER_MODEL, PAPER_JUDGE_MODEL

if TYPE_CHECKING:
    from pytest_pau.models import ScoresReport
    from pytest_pau.plugin.state import PauRun
    from pytest_pau.settings import PauSettings

PSEUDO = ("oracle", "null")


def remote_roles(settings: PauSettings) -> list[tuple[str, str, str | None]]:
    """``(role, model, api_base)`` of every role a remote model plays (one row per model)."""
    rows = [
        ("model", settings.model or "", settings.api_base),
        ("judge", settings.judge_model, settings.judge_api_base),
        ("coder", settings.coder_model, settings.coder_api_base),
    ]
    seen: set[tuple[str, str | None]] = set()
    out = []
    for role, model, base in rows:
        if not model or model in PSEUDO or model in LOCAL_MODELS or (model, base) in seen:
            continue
        seen.add((model, base))
        out.append((role, model, base))
    return out


def endpoint_notes(settings: PauSettings) -> list[str]:
    """Notes for models behind an ``api_base`` whose server does not identify them.

    Their answers are cached by alias and address only (see :mod:`pytest_pau.llm.endpoint`).
    """
    if settings.no_cache:
        return []
    from pytest_pau.llm.endpoint import alias_cache_note, identity

    # One note for all of them (a judge and a coder on two servers made two notes that
    # said the same), each address as the user wrote it.
    served = [
        (model, base)
        for _role, model, base in remote_roles(settings)
        if base and not identity(base, model).identifying
    ]
    return [alias_cache_note(served)] if served else []


def output_args(
    settings: PauSettings, resolve: Callable[[Path], Path], *, junitxml: str | None = None
) -> list[PathArg]:
    """The run's outputs: each requested row of the outputs' table (its files, then its
    folders: ``--pau-report``, ``--pau-html``, ``--pau-markdown``, ``--pau-plots``), then
    ``--junitxml``."""
    from pytest_pau.settings.gates_and_outputs import REPORT_OUTPUTS

    out = []
    for output in sorted(REPORT_OUTPUTS, key=lambda output: bool(output.writes)):
        value = getattr(settings, output.field)
        if value is not None:
            path = resolve(value.expanduser())
            out.append(
                PathArg(
                    output.flag, str(value), path, folder=bool(output.writes), writes=output.writes
                )
            )
    if junitxml:
        out.append(PathArg("--junitxml", junitxml, resolve(Path(junitxml).expanduser())))
    return out


def input_args(
    settings: PauSettings,
    resolve: Callable[[Path], Path] = Path.resolve,
    *,
    inifile: Path | None = None,
) -> list[PathArg]:
    """What the run reads, and an output must never overwrite.

    The dataset file (or a local ``hf:`` folder's files), the ``--pau-baseline`` report, the
    cache folder's files (the model cache and the calibration store, also under
    ``--pau-no-cache``: they are the user's, whether or not this run reads them) and
    pytest's config file (``inifile``, whatever its name; conftest files are refused by
    name, :func:`pytest_pau.files.guard.check_names`).
    """
    out = []
    dataset = Path(settings.dataset).expanduser()
    if dataset.is_file():  # builtin, humaneval and hf: specs name no file here
        out.append(
            PathArg(
                "--pau-dataset",
                settings.dataset,
                real(dataset, f"--pau-dataset={settings.dataset!r}"),
                what="the dataset",
            )
        )
    elif settings.dataset.startswith("hf:") and Path(settings.dataset[3:]).expanduser().is_dir():
        folder = real(Path(settings.dataset[3:]), f"--pau-dataset={settings.dataset!r}")
        files = tuple(sorted(p for p in folder.rglob("*") if p.is_file()))[:1000]
        if files:
            out.append(
                PathArg(
                    "--pau-dataset",
                    settings.dataset,
                    files[0],
                    what="the dataset",
                    extra_files=files[1:],
                )
            )
    if settings.baseline is not None:
        out.append(
            PathArg(
                "--pau-baseline",
                str(settings.baseline),
                resolve(settings.baseline.expanduser()),
                what="the baseline report",
            )
        )
    if settings.cache_dir is not None:
        from pytest_pau.llm.cache.cache_file import CALIBRATION_FILENAME, FILENAME

        sqlite = [(name, f"{name}-wal", f"{name}-shm") for name in (FILENAME, CALIBRATION_FILENAME)]
        out.append(
            PathArg(
                "--pau-cache-dir",
                str(settings.cache_dir),
                real(Path(settings.cache_dir), f"--pau-cache-dir={str(settings.cache_dir)!r}"),
                folder=True,
                writes=tuple(name for names in sqlite for name in names),
                what="the model cache and the calibration store",
            )
        )
    if inifile is not None:
        out.append(
            PathArg("pytest's config file", str(inifile), inifile, what="pytest's config file")
        )
    return out


#: Episodes per process at most, whatever the machine allows: requests are bounded per
#: endpoint by --pau-max-connections anyway, so more threads would only wait.
MAX_CONCURRENCY = 1024
#: Open files one episode may hold at once: a connection to each role's endpoint, and its
#: sandbox.
FILES_PER_EPISODE = 4


def concurrency_limit() -> tuple[int, str]:
    """The most episodes one process can run at once here, and what sets that limit."""
    import resource

    limits = [(MAX_CONCURRENCY, f"pytest-pau's cap of {MAX_CONCURRENCY} per process")]
    files, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if files != resource.RLIM_INFINITY:
        limits.append(
            (
                max(1, files // FILES_PER_EPISODE),
                f"the open-file limit, ulimit -n {files}, at {FILES_PER_EPISODE} files an episode",
            )
        )
    threads, _ = resource.getrlimit(resource.RLIMIT_NPROC)
    if threads != resource.RLIM_INFINITY:
        limits.append((max(1, threads // 2), f"half the thread limit, ulimit -u {threads}"))
    return min(limits)


def check_concurrency(settings: PauSettings) -> None:
    """Refuse ``--pau-concurrency`` past what one process can run here (threads, files).

    Raises:
        ConfigError: naming the limit and what sets it.
    """
    if settings.concurrency is None:
        return
    limit, why = concurrency_limit()
    if settings.concurrency > limit:
        raise ConfigError(
            f"--pau-concurrency={settings.concurrency}: more episodes than one process can run "
            f"at once here; the most is {limit} ({why}). Pass --pau-concurrency={limit} or "
            "less (with -n, it is per worker). Checked before any model call, so nothing was "
            "paid for"
        )


def check_plots_extra(settings: PauSettings) -> None:
    """``--pau-plots`` needs matplotlib: say so now, not after the run.

    Raises:
        ConfigError: naming the option and the install command.
    """
    if settings.plots is None:
        return
    from pytest_pau.report.plots import check_matplotlib

    try:
        check_matplotlib()  # imports it: installed is not enough, it must import
    except ConfigError as exc:
        raise ConfigError(
            f"--pau-plots={str(settings.plots)!r}: {exc} (or drop --pau-plots; --pau-html "
            "works without it)"
        ) from None


def roles(settings: PauSettings, *, custom_agent: bool = False) -> list[Role]:
    """Every role a remote model plays, for the credentials check.

    The failure classifier asks the judge's model, so it needs no row of its own. With a
    ``pytest_pau_make_agent`` hook the agent may not call ``--pau-model`` through litellm
    at all, so that role is left to the hook.
    """
    rows = [
        ("the model under test", "--pau-model", settings.model, settings.api_base),
        ("the judge", "--pau-judge-model", settings.judge_model, settings.judge_api_base),
        ("the coder", "--pau-coder-model", settings.coder_model, settings.coder_api_base),
    ]
    out = []
    for name, option, model, base in rows:
        if not model or model in PSEUDO or model in LOCAL_MODELS:
            continue
        if custom_agent and option == "--pau-model":
            continue
        out.append(Role(name, option, model, base))
    return out


def check_paper_roles(settings: PauSettings) -> None:
    """``--pau-protocol=paper`` with the paper's judge or coder and no server for it: stop.

    The paper's scorers are open models (no hosted route is assumed): each needs an
    OpenAI-compatible server, or another model named for the role.

    Raises:
        ConfigError: naming both models, the options, and how to serve them.
    """
    if settings.protocol != PAPER:
        return
    rows = (
        ("judge", settings.judge_model, settings.judge_api_base, PAPER_JUDGE_MODEL, PAPER_JUDGE),
        ("coder", settings.coder_model, settings.coder_api_base, PAPER_CODER_MODEL, PAPER_CODER),
    )
    unserved = [(role, hf) for role, model, base, paper, hf in rows if model == paper and not base]
    if not unserved:
        return
    lines = [
        f"--pau-protocol=paper scores with the paper's judge {PAPER_JUDGE} and coder "
        f"{PAPER_CODER}; no server was named for the "
        + " and the ".join(role for role, _ in unserved)
        + ", so no item was run. Serve each model with an OpenAI-compatible server and pass "
        "its URL:"
    ]
    for port, (role, hf) in enumerate(unserved, start=8001):
        lines.append(
            f"  {role}: vllm serve {hf} --port {port}  (or llama.cpp: python -m "
            f"llama_cpp.server --model <{hf.split('/')[-1]} GGUF> --port {port}), then "
            f"--pau-{role}-api-base=http://127.0.0.1:{port}/v1"
        )
    lines.append(
        "or name another route for the role with --pau-judge-model=MODEL / "
        "--pau-coder-model=MODEL (any litellm model string; its API key must be set)"
    )
    raise ConfigError("\n".join(lines))


def check_self_coder(settings: PauSettings) -> None:
    """``--pau-coder=self`` needs a model under test that writes code.

    Raises:
        ConfigError: the model is a pseudo-model (``oracle``, ``null``).
    """
    if settings.coder == "self" and settings.model in PSEUDO:
        raise ConfigError(
            f"--pau-coder=self: the pseudo-model {settings.model!r} writes no code, so there "
            "is no self coder to score; use --pau-coder=fixed, or a real --pau-model"
        )


def check_credentials(settings: PauSettings, *, custom_agent: bool = False) -> None:
    """Fail before any item when a remote role's model has no API key in the environment.

    Raises:
        ConfigError: naming each variable, the model and the roles that need it.
    """
    missing = missing_keys(roles(settings, custom_agent=custom_agent))
    if missing:
        lines = "\n  ".join(m.message() for m in missing)
        raise ConfigError(
            f"missing API key{'s' if len(missing) > 1 else ''}; no item was run:\n  {lines}"
        )


def prepare_cache(settings: PauSettings) -> str | None:
    """Check (and create) the model cache before any worker starts; returns its warning.

    Two xdist workers creating a fresh SQLite file at the same moment can collide on
    switching it to WAL mode ("database is locked"); once the file exists in WAL mode,
    workers only open it. A broken ``--pau-cache-dir`` fails before any item, and a damaged
    cache file is set aside (``verify_cache``) while no worker has it open; the warning
    saying so is returned for the summary.

    Raises:
        ConfigError: the cache cannot be used there; the message names the option and the fix.
    """
    if settings.no_cache or settings.cache_dir is None:
        return None
    from pytest_pau.errors import CacheError, CacheWarning
    from pytest_pau.llm.cache.check import verify_cache

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CacheWarning)
            check = verify_cache(settings.cache_dir)
    except CacheError as exc:  # names --pau-cache-dir, the file, the reason, the fix
        raise ConfigError(str(exc)) from None
    except Exception as exc:  # sqlite3 and OS errors: say which option to fix
        raise ConfigError(
            f"--pau-cache-dir={str(settings.cache_dir)!r}: cannot create the model "
            f"cache there ({exc}); pick a writable folder or pass --pau-no-cache"
        ) from None
    return check.warning


def read_baseline(state: PauRun) -> ScoresReport | None:
    """``--pau-baseline``: read the report, and refuse one whose scores mean something else.

    Also refuses ``--pau-early-stop`` without any gate (it would stop nothing).

    Raises:
        ConfigError: The file is unreadable or not a report, or it comes from another
            dataset, split, judge, coder, prompts version or protocol (each named).
    """
    s = state.settings
    if s.early_stop and not s.gated:
        from pytest_pau.models.metrics import LEVEL_GATES

        levels = ", ".join(gate.option for gate in LEVEL_GATES.values())
        raise ConfigError(
            f"--pau-early-stop needs a gate to decide: set {levels} or --pau-baseline"
        )
    if s.baseline is None:
        return None
    from pytest_pau.plugin.finish import run_info
    from pytest_pau.report.compare_io import read_scores
    from pytest_pau.stats.gates import check_baseline

    path = state.resolve(s.baseline.expanduser())
    try:
        baseline = read_scores(path)
    except ConfigError as exc:
        raise ConfigError(f"--pau-baseline={str(s.baseline)!r}: {exc}") from None
    # The settings that differ but leave the scores comparable (mode, iterations...) are
    # notes of the baseline block in the summary (stats.gates.baseline_gate), not warnings.
    refusals, _ = check_baseline(baseline, run_info(state, False), str(s.baseline))
    if refusals:
        raise ConfigError(
            "\n".join(refusals)
            + "\nscores from other settings are not comparable: make the baseline with the "
            "same settings (or re-run the released model now with these)"
        )
    return baseline
