"""Example outputs from the gold code itself, and what the stored ones got wrong.

``--pau-dataset-outputs=recompute`` runs every instance's gold code on every train and test
input once, in the sandbox the benchmark uses (through the
:data:`~pytest_pau.dataset.execute.OutputRunner` the caller hands in), caches the results
by the instance's fingerprint (its code and inputs, and the pytest-pau version whose sandbox
ran them), and uses them as the outputs. Every stored output that the gold code does not
give is reported with the reason (:func:`why_different`): a tuple stored as a JSON list,
int dict keys stored as strings, repr text where a value belongs (or the reverse), the gold
code raising here, or simply another value. A call the sandbox cannot run (a missing
standard-library module, a time limit) keeps the stored output, and says so.

:func:`paper_expectations` serves ``--pau-protocol=paper``: the reference's scorer compares
the live outputs with the JSON-decoded test cells, so the tuple a JSON list stands for can
never match; the protocol does the same and says how many items that changes.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from pytest_pau._version import __version__
from pytest_pau.dataset.execute import OutputRunner
from pytest_pau.dataset.load_info import DatasetInfo, LoadedDataset
from pytest_pau.dataset.python_ast import literal_eval
from pytest_pau.errors import DatasetError
from pytest_pau.models import CallResult, Example, Instance, OutputDisagreement
from pytest_pau.paths import write_text_atomic

#: Bump when what is cached changes: it invalidates every cached recomputation.
RECOMPUTE_VERSION = "1"
#: Errors that say the sandbox could not run the call as CPython would (not the method's).
NOT_RUN = frozenset({"InputError", "Timeout", "SandboxError", "SandboxLimitation"})
_MISSING = object()


def fingerprint(instance: Instance) -> str:
    """What decides the recomputed outputs: the code, the inputs, the sandbox's version."""
    payload = json.dumps(
        {
            "v": RECOMPUTE_VERSION,
            "plugin": __version__,
            "code": instance.code,
            "inputs": [e.input for e in (*instance.train_examples, *instance.test_examples)],
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def _literal(text: str) -> object:
    try:
        return literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _MISSING


def same_value(a: object, b: object) -> bool:
    """Equal and of the same types all the way down (``(1,) != [1]``, ``1 != True``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))  # type: ignore[arg-type]
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple))
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        assert isinstance(b, dict)
        keys = {(type(k), k) for k in a}
        return keys == {(type(k), k) for k in b} and all(same_value(a[k], b[k]) for k in a)
    return a == b


def _lists(value: object) -> object:
    """``value`` with every tuple a list, as JSON writes it."""
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    return value


def _str_keys(value: object) -> object:
    """``value`` with every dict key a str, as JSON writes it (``1`` -> ``"1"``)."""
    if isinstance(value, (list, tuple)):
        return type(value)(_str_keys(v) for v in value)
    if isinstance(value, dict):
        return {
            json.dumps(k) if not isinstance(k, str) else k: _str_keys(v) for k, v in value.items()
        }
    return value


def why_different(stored: Example, live: CallResult) -> str | None:
    """Why the stored example's output is not what the gold code gives (None: it is)."""
    if not live.ok:
        if live.error_type in NOT_RUN:
            return f"not recomputed, the stored output is kept: {live.observation()}"
        if stored.raises is not None and stored.raises == live.error_type:
            return None
        return f"the gold code raises {live.error_type} on this input"
    if stored.raises is not None:
        return f"stored as raising {stored.raises}; the gold code returns a value"
    value = _literal(live.value or "")
    kept = _literal(stored.output)
    if value is _MISSING or kept is _MISSING:
        return None if stored.output == live.value else "another value"
    if same_value(kept, value):
        return None
    if same_value(kept, _lists(value)):
        return "tuple stored as a list (JSON has no tuple)"
    if same_value(kept, _str_keys(value)):
        return "int keys stored as strings (JSON keys are strings)"
    if same_value(kept, _lists(_str_keys(value))):
        return "tuple stored as a list and int keys as strings (JSON)"
    if isinstance(kept, str) and same_value(_literal(kept), value):
        return "repr text stored where the layout has a value"
    if isinstance(value, str) and stored.output == value:
        return "a value stored where the layout has repr text"
    if kept == value:
        return f"{type(kept).__name__} stored for {type(value).__name__}"
    return "another value"


def _live_example(stored: Example, live: CallResult) -> Example:
    if live.ok:
        return Example(input=stored.input, output=live.value or "")
    if live.error_type in NOT_RUN:
        return stored
    return Example(input=stored.input, output=live.message or "", raises=live.error_type)


def _cached(folder: Path, key: str, n: int) -> list[CallResult] | None:
    try:
        raw = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
        results = [CallResult.model_validate(r) for r in raw]
    except (OSError, ValueError):
        return None  # not cached, or a damaged entry: computed again
    return results if len(results) == n else None


def _run(
    instances: Sequence[Instance], runner: OutputRunner, folder: Path
) -> tuple[dict[str, list[CallResult]], int]:
    """Every instance's live results (cached ones read back), and how many were cached."""
    out: dict[str, list[CallResult]] = {}
    pending: list[tuple[Instance, str]] = []
    for inst in instances:
        key = fingerprint(inst)
        n = len(inst.train_examples) + len(inst.test_examples)
        found = _cached(folder, key, n)
        if found is None:
            pending.append((inst, key))
        else:
            out[inst.id] = found
    if pending:
        jobs = [
            (inst.code, [e.input for e in (*inst.train_examples, *inst.test_examples)])
            for inst, _ in pending
        ]
        results = runner(jobs)
        if len(results) != len(jobs):
            raise DatasetError(
                f"recomputing outputs: the runner answered {len(results)} of {len(jobs)} methods"
            )
        for (inst, key), rows in zip(pending, results, strict=True):
            out[inst.id] = rows
            try:
                text = json.dumps([r.model_dump(mode="json") for r in rows])
                write_text_atomic(folder / f"{key}.json", text)
            except OSError:
                pass  # the cache is an optimisation: the outputs are computed all the same
    return out, len(instances) - len(pending)


def recompute(loaded: LoadedDataset, runner: OutputRunner, *, cache_dir: Path) -> LoadedDataset:
    """The instances with every output the gold code gives, and what disagreed.

    Args:
        loaded: The instances as read (their stored outputs are compared).
        runner: Runs the gold code (the sandbox's, :func:`pytest_pau.load_dataset`).
        cache_dir: The dataset cache; results go to ``<cache_dir>/recomputed/``.

    Raises:
        DatasetError: the runner failed as a whole.
    """
    folder = Path(cache_dir) / "recomputed"
    live, cached = _run(loaded, runner, folder)
    found: list[OutputDisagreement] = []
    instances = []
    for inst in loaded:
        rows = live[inst.id]
        new: dict[str, list[Example]] = {}
        pos = 0
        for field in ("train_examples", "test_examples"):
            new[field] = []
            for index, example in enumerate(getattr(inst, field)):
                result = rows[pos]
                pos += 1
                new[field].append(_live_example(example, result))
                reason = why_different(example, result)
                if reason is not None:
                    found.append(
                        OutputDisagreement(
                            id=inst.id,
                            field=field,
                            index=index,
                            input=example.input,
                            stored=example.output,
                            recomputed=result.observation(),
                            reason=reason,
                        )
                    )
        instances.append(inst.model_copy(update=new))
    info = DatasetInfo(
        "recomputed",
        loaded.info.outputs_by,
        loaded.info.evidence,
        stored=loaded.info.outputs or "the loader's outputs",
        notes=(*loaded.info.notes, _note(len(loaded), cached, found)),
        disagreements=tuple(found),
    )
    return LoadedDataset(instances, info, loaded.json_tests)


def _note(n: int, cached: int, found: Sequence[OutputDisagreement]) -> str:
    head = (
        f"outputs recomputed by the gold code in the sandbox for {n} instance"
        f"{'s' if n != 1 else ''} ({cached} from the cache)"
    )
    if not found:
        return head + "; every stored output agrees"
    reasons = Counter(d.reason.split(":")[0] for d in found)
    items = len({d.id for d in found})
    parts = ", ".join(f"{c} {r}" for r, c in reasons.most_common())
    return (
        f"{head}; {len(found)} stored output{'s' if len(found) != 1 else ''} in {items} "
        f"instance{'s' if items != 1 else ''} disagree: {parts} (each in the JSON report's "
        "run.dataset_disagreements; the gold code's outputs are used)"
    )


def paper_expectations(loaded: LoadedDataset) -> LoadedDataset:
    """The test outputs as the reference's scorer compares them (``--pau-protocol=paper``).

    For a file in the reference's layout, every test expectation becomes the JSON-decoded
    cell (a tuple stored as a list stays a list, so no live tuple equals it); the note says
    how many items' expectations that changes, against the gold code's outputs when they
    were recomputed, else against the layout's reading. Other datasets keep their outputs.
    """
    what = "the gold code's outputs" if loaded.info.outputs == "recomputed" else "the outputs read"
    if not loaded.json_tests:
        note = (
            "--pau-protocol=paper: test outputs compared as read (the file is not in the "
            "reference's layout, whose JSON-decoded cells the reference's scorer compares)"
        )
        return LoadedDataset(loaded, _with_note(loaded.info, note), loaded.json_tests)
    changed: list[str] = []
    instances = []
    for inst in loaded:
        cells = loaded.json_tests.get(inst.id)
        if cells is None or len(cells) != len(inst.test_examples):
            instances.append(inst)
            continue
        tests = [
            Example(input=e.input, output=c) for e, c in zip(inst.test_examples, cells, strict=True)
        ]
        if any(
            e.raises is not None or not same_value(_literal(e.output), _literal(t.output))
            for e, t in zip(inst.test_examples, tests, strict=True)
        ):
            changed.append(inst.id)
        instances.append(inst.model_copy(update={"test_examples": tests}))
    shown = ", ".join(changed[:5]) + (f" (+{len(changed) - 5} more)" if len(changed) > 5 else "")
    note = (
        "--pau-protocol=paper: test outputs compared as the reference's scorer compares "
        f"them (the JSON-decoded cells): {len(changed)} of {len(instances)} items' "
        f"expectations differ from {what}" + (f": {shown}" if changed else "")
    )
    if loaded.info.outputs != "recomputed":
        note += "; --pau-dataset-outputs=recompute also finds the tuples and int keys JSON lost"
    return LoadedDataset(instances, _with_note(loaded.info, note), loaded.json_tests)


def _with_note(info: DatasetInfo, note: str) -> DatasetInfo:
    from dataclasses import replace

    return replace(info, notes=(*info.notes, note))
