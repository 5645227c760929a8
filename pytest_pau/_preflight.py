"""What a run checks before its first item, so that a mistake costs no model call.

Each check either raises :class:`~pytest_pau.errors.ConfigError` (the plugin turns it into a
usage error naming the option) or returns notes for the summary.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pau.errors import ConfigError
from pytest_pau.options import LOCAL_MODELS

if TYPE_CHECKING:
    from pytest_pau._session import PauSession
    from pytest_pau.report.compare_io import ScoresReport
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
    from pytest_pau.llm.endpoint import identity

    notes = []
    for _role, model, base in remote_roles(settings):
        if base:
            note = identity(base, model).warning(model)
            if note is not None:
                notes.append(note)
    return notes


def check_report_path(report: Path | None, target: Path | None) -> None:
    """Fail before any item when the ``--pau-report`` file could never be written.

    Creates nothing: walks up to the nearest existing folder and checks that it is a
    writable folder (``write_report`` creates the missing ones), and that the report path
    itself is not a folder.

    Args:
        report: ``--pau-report`` as given.
        target: The same, resolved from the invocation folder.

    Raises:
        ConfigError: naming ``--pau-report``, the path and the problem.
    """
    if report is None or target is None:
        return
    problem = None
    if target.is_dir():
        problem = "it is a folder"
    else:
        ancestor = target.parent
        while not ancestor.exists() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            problem = f"{str(ancestor)!r} is not a folder"
        elif not os.access(ancestor, os.W_OK | os.X_OK):
            problem = f"folder {str(ancestor)!r} is not writable"
    if problem is not None:
        raise ConfigError(
            f"--pau-report={str(report)!r}: cannot write the report there "
            f"({problem}); pick a writable path"
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
    from pytest_pau.llm.cache_check import verify_cache

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


def read_baseline(state: PauSession) -> ScoresReport | None:
    """``--pau-baseline``: read the report, and refuse one whose scores mean something else.

    Also refuses ``--pau-early-stop`` without any gate (it would stop nothing).

    Raises:
        ConfigError: The file is unreadable or not a report, or it comes from another
            dataset, split, judge, coder or prompts version (each named).
    """
    s = state.settings
    if s.early_stop and not s.gated:
        raise ConfigError(
            "--pau-early-stop needs a gate to decide: set --pau-min-mean-judge, "
            "--pau-min-pass-rate, --pau-min-mean-match or --pau-baseline"
        )
    if s.baseline is None:
        return None
    from pytest_pau._outputs import run_info, warn
    from pytest_pau.report.compare_io import read_scores
    from pytest_pau.report.gates import check_baseline

    path = state.resolve(s.baseline.expanduser())
    try:
        baseline = read_scores(path)
    except ConfigError as exc:
        raise ConfigError(f"--pau-baseline={str(s.baseline)!r}: {exc}") from None
    refusals, notes = check_baseline(baseline, run_info(state, False), str(s.baseline))
    if refusals:
        raise ConfigError(
            "\n".join(refusals)
            + "\nscores from other settings are not comparable: make the baseline with the "
            "same settings (or re-run the released model now with these)"
        )
    for note in notes:
        warn(note)
    return baseline
