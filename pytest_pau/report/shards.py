"""Joining shard reports (``--pau-shard=K/N``): what makes them one run, checked, fail closed.

:func:`join_shards` takes the N reports and returns the whole run's items, in the selection's
order, with one ``run`` block and the settings; ``pau merge`` then recomputes every figure
and verdict from those items with the plugin's own functions (nothing is averaged from the
shards' summaries: an interval or a gate of one part says nothing about the whole).

It refuses (:class:`~pytest_pau.errors.MergeError`, every problem one line) when:

* a report is no shard, says it is part K of N with K outside 1..N, the shards were split
  in different numbers of parts, a part is missing or given twice (whatever N is, the work
  is bounded by the shards given: five missing parts are named and the rest counted);
* a shard holds two results for one item (which one would count is a guess);
* the ``run`` blocks differ in any field but those that differ between machines
  (:data:`PER_MACHINE_RUN_FIELDS`): the plugin version, model, judge, coder, dataset, split,
  mode, seed, iterations, prompts version, thresholds and whatever a later version adds
  (the protocol) are all compared, not a chosen few;
* the recorded settings differ (every setting but the per-machine ones: outputs, cache
  folder, concurrency, the shard itself);
* the selections, the instances' contents, or the cached instances the partition was
  balanced on differ (then some items ran twice and others never: named), or an item is
  in no shard or in two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_pau.errors import MergeError
from pytest_pau.models import CalibrationRow, InstanceResult, Report, RunInfo, ShardInfo
from pytest_pau.prompting.evidence import clip

#: ``run`` fields that legitimately differ between the shards of one run.
PER_MACHINE_RUN_FIELDS = frozenset(
    # instance_digests: the shards' contents are compared as ShardInfo.instances_digest,
    # whose message says what differs (a dict of every digest would not).
    {"started", "finished", "host", "python", "interrupted", "shard", "instance_digests"}
)
#: How many ids a message lists before "+N more".
LISTED = 5
#: A shard's machine notes kept, and the characters kept of each: a note is a line or
#: two about the shard's machine; a 150 MB one is not printed whole in the terminal.
MAX_NOTES = 50
MAX_NOTE_CHARS = 2000


@dataclass
class Joined:
    """The shards as one run, before its figures are computed."""

    run: RunInfo
    """The shards' common ``run`` block: earliest start, latest finish, every host."""
    results: list[InstanceResult]
    """Every shard's items, in the selection's order."""
    selection: list[str]
    settings: dict[str, Any]
    """The shards' recorded settings (equal in all of them)."""
    count: int
    notes: list[str] = field(default_factory=list)
    """The shards' machine notes: as written when every shard made it, else prefixed with
    the shards that did."""
    calibration: list[CalibrationRow] = field(default_factory=list)
    calibration_commands: dict[str, str] = field(default_factory=dict)


def _ids(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:LISTED])
    return shown + (f", +{len(ids) - LISTED} more" if len(ids) > LISTED else "")


def _named(path: str, info: ShardInfo) -> str:
    return f"{path} (shard {info.index}/{info.count})"


def _first_difference(a: Sequence[str], b: Sequence[str]) -> str:
    for n, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"at position {n + 1}: {x!r} vs {y!r}"
    return f"{len(a)} vs {len(b)} instances"


def _parts(reports: Sequence[tuple[str, Report]]) -> tuple[list[tuple[str, ShardInfo]], int]:
    problems = []
    parts = []
    for path, report in reports:
        if report.shard is None:
            problems.append(
                f"{path} is not a shard's report (it was run without --pau-shard=K/N); "
                "merge only the reports of one run's shards"
            )
        else:
            parts.append((path, report.shard))
    if problems:
        raise MergeError("\n".join(problems))
    counts = sorted({info.count for _, info in parts})
    if len(counts) > 1:
        raise MergeError(
            "the shards were split in different numbers of parts: "
            + "; ".join(f"{_named(p, i)}" for p, i in parts)
        )
    count = counts[0]
    by_index: dict[int, list[str]] = {}
    for path, info in parts:
        if not 1 <= info.index <= info.count:
            problems.append(
                f"{path} says it is shard {info.index}/{info.count}, which no run is: "
                "K/N needs 1 <= K <= N; it is no shard's report as written"
            )
        by_index.setdefault(info.index, []).append(path)
    if problems:
        raise MergeError("\n".join(problems))
    for index, paths in sorted(by_index.items()):
        if len(paths) > 1:
            problems.append(
                f"shard {index}/{count} is given twice: {', '.join(paths)}; pass each shard's "
                "report once"
            )
    # Bounded by the shards given, not by N (a count of 10^12 lists 5 and counts the rest).
    n_missing = count - len(by_index)
    if n_missing:
        missing = _first_missing(by_index, count, LISTED)
        listed = ", ".join(f"{k}/{count}" for k in missing)
        if n_missing > len(missing):
            listed += f", +{n_missing - len(missing):,} more"
        given = ", ".join(f"{i.index}/{count} from {p}" for p, i in parts)
        problems.append(
            f"shard{'s' if n_missing > 1 else ''} {listed} "
            f"{'are' if n_missing > 1 else 'is'} missing (given: {given}); every "
            "shard's --pau-report is needed: a merge of some shards would be a part of the "
            "selection passed off as the whole"
        )
    if problems:
        raise MergeError("\n".join(problems))
    return parts, count


def _first_missing(given: dict[int, list[str]], count: int, n: int) -> list[int]:
    """The first ``n`` indices in 1..``count`` not in ``given`` (``len(given) + n`` steps)."""
    out: list[int] = []
    k = 1
    while len(out) < n and k <= count:
        if k not in given:
            out.append(k)
        k += 1
    return out


def _differences(
    label: str, values: Sequence[tuple[str, dict[str, Any]]], skip: frozenset[str]
) -> list[str]:
    """One line per key whose value is not the same in every shard."""
    first_path, first = values[0]
    keys = sorted({k for _, v in values for k in v} - skip)
    out = []
    for key in keys:
        for path, value in values[1:]:
            if value.get(key) != first.get(key):
                out.append(
                    f"the shards disagree on {label} {key}: {first.get(key)!r} in "
                    f"{first_path}, {value.get(key)!r} in {path}"
                )
                break
    return out


def _coverage(parts: Sequence[tuple[str, ShardInfo]], selection: list[str]) -> list[str]:
    problems = []
    cached = [(p, i) for p, i in parts if i.cached != parts[0][1].cached]
    if cached:
        path, other = cached[0]
        a, b = set(parts[0][1].cached), set(other.cached)
        problems.append(
            f"the shards were partitioned from different caches: {parts[0][0]} counted "
            f"{len(a)} instances as cached, {path} {len(b)} (differing: "
            f"{_ids(sorted(a ^ b))}); restore the same cache in every shard (docs/ci.md) "
            "and run them again"
        )
    where: dict[str, list[str]] = {}
    for _path, info in parts:
        for instance in info.own:
            where.setdefault(instance, []).append(f"{info.index}/{info.count}")
    twice = [i for i, found in where.items() if len(found) > 1]
    if twice:
        problems.append(
            f"{len(twice)} instance{'s' if len(twice) != 1 else ''} ran in more than one "
            f"shard ({_ids(twice)}; {twice[0]} in shards {', '.join(where[twice[0]])})"
        )
    nowhere = [i for i in selection if i not in where]
    if nowhere:
        problems.append(
            f"{len(nowhere)} selected instance{'s' if len(nowhere) != 1 else ''} ran in no "
            f"shard ({_ids(nowhere)})"
        )
    chosen = set(selection)  # once: per instance, 20,000 shards' items took minutes
    stray = [i for i in where if i not in chosen]
    if stray:
        problems.append(f"shards ran instances outside the selection ({_ids(stray)})")
    return problems


def join_shards(reports: Sequence[tuple[str, Report]]) -> Joined:
    """The shards ``(path, report)`` as one run; every problem found is raised at once.

    Raises:
        MergeError: see the module docstring.
    """
    if not reports:
        raise MergeError("no shard report given")
    parts, count = _parts(reports)
    runs = [(p, r.run.model_dump(mode="json")) for p, r in reports]
    problems = _differences("run field", runs, PER_MACHINE_RUN_FIELDS)
    settings = [(p, i.settings) for p, i in parts]
    problems += _differences("setting", settings, frozenset())
    unknown = [p for p, i in parts if i.selection is None]
    if unknown:
        problems.append(
            f"{', '.join(unknown)} does not record the shard's selection (no xdist worker "
            "reported it: interrupted before any item?); run that shard again"
        )
        raise MergeError("\n".join(problems))
    first_path, first = parts[0]
    selection = list(first.selection or ())
    for path, info in parts[1:]:
        if info.selection != selection:
            problems.append(
                f"the shards selected different instances: {first_path} "
                f"{len(selection)}, {path} {len(info.selection or ())} "
                f"({_first_difference(selection, info.selection or [])}); run every shard "
                "with the same -k/-m, --pau-limit and dataset"
            )
        elif info.instances_digest != first.instances_digest:
            problems.append(
                f"the shards ran other contents under the same instance ids: {first_path} "
                f"and {path} read different dataset files; run every shard on the same file"
            )
    if not problems:
        problems += _coverage(parts, selection)
    results: dict[str, InstanceResult] = {}
    for path, report in reports:
        assert report.shard is not None
        own = set(report.shard.own)
        seen: set[str] = set()
        for r in report.instances:
            if r.id not in own:
                problems.append(f"{path} has a result for {r.id!r}, which is not its part")
            if r.id in seen:
                # Which of the two is the item's? Either choice would be a guess.
                problems.append(
                    f"{path} holds two results for {r.id!r}; a shard's report has one per "
                    "item (was the file edited or concatenated?): run that shard again"
                )
            seen.add(r.id)
            results.setdefault(r.id, r)
    if problems:
        raise MergeError("\n".join(dict.fromkeys(problems)))
    ordered = [results[i] for i in selection if i in results]
    said: dict[str, list[str]] = {}
    for _, info in sorted(parts, key=lambda pi: pi[1].index):
        for note in dict.fromkeys(clip(n, MAX_NOTE_CHARS) for n in info.notes[:MAX_NOTES]):
            said.setdefault(note, []).append(f"{info.index}/{info.count}")
    # A note every shard made is the run's; one some made says which.
    notes = [
        note
        if len(where) == count
        else f"shard{'s' if len(where) > 1 else ''} {', '.join(where)}: {note}"
        for note, where in said.items()
    ]
    rows: dict[tuple[str, str], CalibrationRow] = {}
    for _, info in sorted(parts, key=lambda pi: pi[1].index):
        for row in info.calibration:
            rows.setdefault((row.instance, row.model), row)
    return Joined(
        run=_run(reports),
        results=ordered,
        selection=selection,
        settings=dict(first.settings),
        count=count,
        notes=notes,
        calibration=list(rows.values()),
        calibration_commands=dict(first.calibration_commands),
    )


def _run(reports: Sequence[tuple[str, Report]]) -> RunInfo:
    runs = [r.run for _, r in reports]
    started = [r.started for r in runs if r.started]
    finished = [r.finished for r in runs if r.finished]
    return runs[0].model_copy(
        update={
            "started": min(started) if started else "",
            "finished": max(finished) if finished else "",
            "host": ", ".join(dict.fromkeys(r.host for r in runs if r.host)),
            "python": ", ".join(dict.fromkeys(r.python for r in runs if r.python)),
            "interrupted": any(r.interrupted for r in runs),
            "shard": None,
        }
    )
