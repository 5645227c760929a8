"""Reading and writing the JSON report (``--pau-report``), atomically.

The schema is :class:`pytest_pau.models.Report`: ``run`` (what produced it),
``instances`` (one :class:`~pytest_pau.models.InstanceResult` each) and ``summary``
(:func:`pytest_pau.report.summary.build_summary`).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from pytest_pau.errors import ConfigError, quote
from pytest_pau.files.guard import check_input_file
from pytest_pau.models import Report, RunInfo
from pytest_pau.paths import write_text_atomic
from pytest_pau.report.text_cap import capped

if TYPE_CHECKING:
    from pytest_pau.report.outputs import OutputContext
    from pytest_pau.settings import PauSettings

M = TypeVar("M", bound=BaseModel)

#: The largest report read (reports cap each text field at 64 K characters; 5,500 items
#: with long trajectories stay far below this).
MAX_REPORT_BYTES = 4 * 1024**3


def run_info_of(settings: PauSettings, *, model: str, **extra: Any) -> RunInfo:
    """A report's ``run`` block from the settings that decide its scores.

    The one place that lists them (model, judge, coder, dataset, split, mode, seed,
    iterations, prompts version, thresholds, protocol, coder variant): a baseline is refused or accepted on
    exactly these, so the plugin and ``pau train`` must never write them differently.
    ``extra`` adds what only the caller knows (times, host, dataset outputs).
    """
    from pytest_pau._version import __version__
    from pytest_pau.prompting import PROMPTS_VERSION

    return RunInfo(
        plugin_version=__version__,
        model=model,
        judge_model=settings.judge_model,
        coder_model=settings.coder_model,
        dataset=settings.dataset,
        split=settings.split,
        mode=settings.mode,
        seed=settings.seed,
        max_iterations=settings.max_iterations,
        prompts_version=PROMPTS_VERSION,
        thresholds=settings.thresholds(),
        protocol=settings.protocol,
        coder=settings.coder,
        **extra,
    )


def write_report(path: str | os.PathLike[str], report: Report) -> Path:
    """Write ``report`` as JSON to ``path`` atomically.

    The text goes to a temporary file in the same folder, is flushed to disk, then
    renamed over ``path``, so a reader (or a run killed mid-write) never sees half a file.
    Each text field keeps at most :data:`~pytest_pau.report.text_cap.MAX_STORED_CHARS`
    characters, with a marker giving the full length (the model cache has the full text).

    Returns:
        The absolute path written.
    """
    return write_text_atomic(path, capped(report).model_dump_json(indent=1))


def read_report(path: str | os.PathLike[str]) -> Report:
    """Read a report written by :func:`write_report`.

    Raises:
        ConfigError: The file is missing or is not a pytest-pau report; the message
            names the file and the first problem.
    """
    return read_model(path, Report)


_KINDS = {
    "float_type": "a number",
    "bool_type": "true or false",
    "int_type": "an integer",
    "string_type": "a string",
}


def json_path(loc: tuple[Any, ...]) -> str:
    """``("instances", 2, "judge_score")`` as ``instances[2].judge_score``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def line_of(text: str, loc: tuple[Any, ...]) -> int | None:
    """The line of ``text`` (a JSON report) where ``("instances", i[, field])`` is, if found."""
    if len(loc) < 2 or loc[0] != "instances" or not isinstance(loc[1], int):
        return None
    found = re.search(r'"instances"\s*:\s*\[', text)
    if found is None:
        return None
    decoder = json.JSONDecoder()
    gap = re.compile(r"\s*,?\s*")
    pos = found.end()
    try:
        for _ in range(loc[1]):
            pos = gap.match(text, pos).end()  # type: ignore[union-attr]
            _, pos = decoder.raw_decode(text, pos)
        start = gap.match(text, pos).end()  # type: ignore[union-attr]
        _, end = decoder.raw_decode(text, start)
    except ValueError:
        return None
    offset = start
    if len(loc) > 2 and isinstance(loc[2], str):
        key = text.find(f'"{loc[2]}"', start, end)
        offset = key if key >= 0 else start
    return text.count("\n", 0, offset) + 1


def read_model(path: str | os.PathLike[str], model: type[M]) -> M:
    """Read a JSON report into ``model`` (:class:`Report`, or a lighter view of it).

    Raises:
        ConfigError: The file is missing or does not validate as ``model``; the message
            names the file and the first problem.
    """
    p = Path(path).expanduser()
    hint = "write one with `pytest --pau-model=MODEL --pau-report=PATH`"
    try:
        # A regular file, checked before it is opened: a FIFO would block the read.
        check_input_file(p, "report", max_bytes=MAX_REPORT_BYTES)
        text = p.read_bytes()
    except ConfigError as exc:
        raise ConfigError(f"cannot read {exc}; {hint}") from None
    except OSError as exc:
        raise ConfigError(f"cannot read report {str(p)!r}: {exc.strerror or exc}; {hint}") from None
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first.get("loc", ()))
        where = json_path(loc) or "(top level)"
        line = line_of(text.decode("utf-8", "replace"), loc)
        at = f"line {line}: " if line is not None else ""
        if first.get("type") in ("float_type", "bool_type", "int_type", "string_type"):
            raise ConfigError(
                f"{str(p)!r}: {at}{where} is {quote(first.get('input'))}, not "
                f"{_KINDS[str(first.get('type'))]}; a pytest-pau report writes it unquoted "
                "(fix or remove the edit)"
            ) from None
        # A file that is no JSON at all is the input of its one error: quote its head only.
        got = (
            f" (got {quote(first['input'])})"
            if "input" in first and first.get("type") != "missing"
            else ""
        )
        raise ConfigError(
            f"{str(p)!r} is not a pytest-pau JSON report: {at}at {where}: {first.get('msg')}"
            f"{got}; expected the file that --pau-report wrote"
        ) from None


def render_json(report: Report, context: OutputContext) -> dict[str, bytes]:
    """``--pau-report``'s content (:func:`write_report`'s): the row's renderer
    (:data:`~pytest_pau.settings.gates_and_outputs.REPORT_OUTPUTS`)."""
    return {"": capped(report).model_dump_json(indent=1).encode("utf-8")}
