"""How far ``oracle`` and ``null`` are apart on a selection, with this run's judge and coder.

An embedded judge or coder is low fidelity: a judge mean of 3.1 says little until one
knows that the gold description itself gets 4.6 and no description at all 1.2 from the
same scorers on the same items. Every ``oracle`` / ``null`` run records its per-item
judge score and code match in a small SQLite store beside the model cache
(:data:`~pytest_pau.llm.cache.cache_file.CALIBRATION_FILENAME`), keyed by dataset, split,
instance id, a fingerprint of the instance's content, and the scorers' identity
(:func:`scorer_identity`: judge and coder model, endpoint, embedded weights, reasoning,
judge samples, prompts version, sandbox, seed). A later run with an embedded scorer
reads back only rows with its own identity and its own instances' fingerprints, so no
figure from another judge, coder or prompts version is ever shown; what is not known is
said, with the commands that measure it.

Nothing here touches pytest; ``pytest_pau/plugin/calibration.py`` is the glue.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pytest_pau.llm.cache.cache_file import CALIBRATION_FILENAME
from pytest_pau.models import Calibration, Instance, InstanceResult
from pytest_pau.models.paper import DEFAULT_PROTOCOL
from pytest_pau.report.fmt import num, plural
from pytest_pau.settings import PauSettings
from pytest_pau.stats.describe import mean
from pytest_pau.stats.metrics import counted, counts

#: The pseudo-models whose scores bound a selection: the gold description, and none.
REFERENCES = ("oracle", "null")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS scores (
    identity TEXT NOT NULL,
    dataset TEXT NOT NULL,
    split TEXT NOT NULL,
    instance TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    model TEXT NOT NULL,
    judge REAL,
    match REAL,
    created TEXT NOT NULL,
    PRIMARY KEY (identity, dataset, split, instance, fingerprint, model)
)
"""


@dataclass(frozen=True)
class ItemKey:
    """Which instance a stored score is of (its content included, not only its id)."""

    dataset: str
    split: str
    instance: str
    fingerprint: str


def fingerprint(instance: Instance) -> str:
    """A hash of what decides an instance's oracle/null scores: code, header, gold, tests.

    A file edited under the same id (another gold description, other held-back inputs,
    outputs read another way) gets another fingerprint, so its old scores are not reused.
    """
    payload = json.dumps(
        {
            "code": instance.code,
            "header": instance.header,
            "description": instance.description,
            "tests": [e.model_dump(mode="json") for e in instance.test_examples],
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def _weights(model: str) -> str:
    """The embedded model's weights hash (a ``local`` of another release is another judge)."""
    from pytest_pau.llm.local.weights import SPECS

    spec = SPECS.get(model)
    return f" weights {spec.sha256[:16]}" if spec is not None else ""


def scorer_identity(settings: PauSettings, *, prompts_version: str) -> str:
    """Everything besides the instance that decides the oracle's and null's scores, in words."""
    parts = []
    for role in ("judge", "coder"):
        model: str = getattr(settings, f"{role}_model")
        base: str | None = getattr(settings, f"{role}_api_base")
        mode, budget, effort = settings.reasoning_for(role)
        parts.append(
            f"{role} {model}{f' at {base}' if base else ''}{_weights(model)} "
            f"reasoning {mode}/{budget}/{effort or '-'}"
        )
    parts.append(f"judge samples {settings.judge_samples} logprobs {settings.judge_logprobs}")
    parts.append(f"prompts {prompts_version}; sandbox {settings.sandbox}; seed {settings.seed}")
    if settings.protocol != DEFAULT_PROTOCOL:
        # Another protocol counts missing scores otherwise: its rows are never read back
        # for a run of this one (the identity of a default run is unchanged).
        parts.append(f"protocol {settings.protocol}")
    return "; ".join(parts)


def scorers_text(settings: PauSettings, *, prompts_version: str) -> str:
    """The short name of the scorers for the summary line."""
    protocol = "" if settings.protocol == DEFAULT_PROTOCOL else f", protocol {settings.protocol}"
    return (
        f"judge {settings.judge_model}, coder {settings.coder_model}, prompts {prompts_version}"
        + protocol
    )


class CalibrationStore:
    """Per-item oracle/null scores in ``<cache dir>/calibration.sqlite3``.

    Each call opens and closes its own connection: the store is touched twice per run
    at most, and concurrent runs sharing a cache folder serialise on SQLite's lock.
    """

    def __init__(self, directory: str | Path) -> None:
        self.path = Path(directory).expanduser() / CALIBRATION_FILENAME

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30.0)
        db.execute(_SCHEMA)
        return db

    def record(
        self,
        identity: str,
        model: str,
        rows: Iterable[tuple[ItemKey, float | None, float | None]],
    ) -> int:
        """Store ``(key, judge, match)`` rows of ``model`` (``oracle``/``null``); returns how many.

        Raises:
            ValueError: ``model`` is not one of :data:`REFERENCES`.
            sqlite3.Error, OSError: The store cannot be written.
        """
        if model not in REFERENCES:
            raise ValueError(f"only {REFERENCES} runs calibrate, got model {model!r}")
        created = datetime.now(UTC).isoformat(timespec="seconds")
        values = [
            (identity, k.dataset, k.split, k.instance, k.fingerprint, model, j, m, created)
            for k, j, m in rows
        ]
        with contextlib.closing(self._connect()) as db, db:
            db.executemany(
                "INSERT OR REPLACE INTO scores VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", values
            )
        return len(values)

    def lookup(
        self, identity: str, keys: Sequence[ItemKey]
    ) -> dict[tuple[ItemKey, str], tuple[float | None, float | None]]:
        """``(key, model) -> (judge, match)`` for the keys stored under ``identity``.

        Raises:
            sqlite3.Error, OSError: The store exists but cannot be read.
        """
        if not self.path.exists() or not keys:
            return {}
        wanted = set(keys)
        found: dict[tuple[ItemKey, str], tuple[float | None, float | None]] = {}
        splits = {(k.dataset, k.split) for k in keys}
        with contextlib.closing(self._connect()) as db:
            for dataset, split in splits:
                cursor = db.execute(
                    "SELECT instance, fingerprint, model, judge, match FROM scores "
                    "WHERE identity = ? AND dataset = ? AND split = ?",
                    (identity, dataset, split),
                )
                for instance, fp, model, judge, match in cursor:
                    key = ItemKey(dataset, split, instance, fp)
                    if key in wanted:
                        found[(key, model)] = (judge, match)
        return found


def item_keys(instances: Sequence[Instance], *, dataset: str, split: str) -> dict[str, ItemKey]:
    """Instance id -> its store key."""
    return {i.id: ItemKey(dataset, split, i.id, fingerprint(i)) for i in instances}


def reference_rows(
    results: Iterable[InstanceResult],
    keys: dict[str, ItemKey],
    protocol: str = DEFAULT_PROTOCOL,
) -> list[tuple[ItemKey, float | None, float | None]]:
    """What an oracle/null run stores: its items as ``protocol`` counts them (under the
    default an error or skip is no score; :func:`~pytest_pau.stats.metrics.counted`)."""
    return [
        (keys[r.id], counted(r, "judge", protocol), counted(r, "match", protocol))
        for r in results
        if counts(r, protocol) and r.id in keys
    ]


def calibrate(
    found: dict[tuple[ItemKey, str], tuple[float | None, float | None]],
    keys: Sequence[ItemKey],
    results: dict[str, InstanceResult],
    *,
    scorers: str,
    commands: dict[str, str],
    store_error: str | None = None,
    protocol: str = DEFAULT_PROTOCOL,
) -> Calibration:
    """The calibration of a selection from what the store knows of it.

    Args:
        found: :meth:`CalibrationStore.lookup` of ``keys``.
        keys: The selected instances' keys, one each.
        results: This run's results by instance id (its means on the known items).
        scorers: :func:`scorers_text`.
        commands: ``oracle``/``null`` -> the command that measures it on this selection;
            kept for the models with a selected item unknown.
        store_error: Why the store could not be used, if it could not.
        protocol: How this run's items count (its means on the known items).
    """
    known = [k for k in keys if all((k, m) in found for m in REFERENCES)]
    missing = [m for m in REFERENCES if any((k, m) not in found for k in keys)]

    def means(model: str, index: int) -> float | None:
        return mean([found[(k, model)][index] for k in known])

    mine = [r for k in known if (r := results.get(k.instance)) is not None and counts(r, protocol)]
    return Calibration(
        scorers=scorers,
        selected=len(keys),
        known=len(known),
        oracle_judge=means("oracle", 0),
        null_judge=means("null", 0),
        oracle_match=means("oracle", 1),
        null_match=means("null", 1),
        run_judge=mean([counted(r, "judge", protocol) for r in mine]),
        run_match=mean([counted(r, "match", protocol) for r in mine]),
        commands=[commands[m] for m in missing if m in commands],
        store_error=store_error,
    )


def _gap(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.2f}"


def calibration_line(c: Calibration) -> str:
    """The one line under the summary (also the HTML's): what is known, or how to know it."""
    measure = " then ".join(f"`{cmd}`" for cmd in c.commands)
    if not c.known:
        line = (
            f"calibration: oracle and null are not both measured on the "
            f"{plural(c.selected, 'selected item')} with {c.scorers}; "
            f"measure how far apart they are: {measure}"
        )
    else:
        line = (
            f"calibration ({c.scorers}): on {c.known} of {c.selected} items oracle vs null: "
            f"judge {num(c.oracle_judge)} vs {num(c.null_judge)} ({_gap(c.judge_gap)}), "
            f"code match {num(c.oracle_match)} vs {num(c.null_match)} ({_gap(c.match_gap)}); "
            f"this run on them: judge {num(c.run_judge)}, code match {num(c.run_match)}"
        )
        if c.known < c.selected and measure:
            line += f"; the other {c.selected - c.known}: {measure}"
    if c.store_error:
        line += f" (calibration store: {c.store_error})"
    return line
