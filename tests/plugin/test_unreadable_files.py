"""Files a run cannot read: every dataset reader refuses text that is not UTF-8 with the
file, the place and the byte, as a usage error (exit 4), never an INTERNALERROR (exit 3);
a folder or another file type given as a dataset says what it is; plots asked for without
an importable matplotlib fail before any model call, and the HTML page says why it has none.

Run in a subprocess: ``datasets`` and ``pyarrow`` cannot be imported twice in one process,
which pytester's in-process runs would do.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.testing import ScriptedLLM

from .toy import toy_rows

LATIN = "Crème brûlée."
# Not importorskip: pytester drops modules imported during a test, and datasets cannot be
# imported a second time in one process (pyarrow extension types are registered once).
needs_datasets = pytest.mark.skipif(
    importlib.util.find_spec("datasets") is None, reason="the hf: loader needs the hf extra"
)
needs_pyarrow = pytest.mark.skipif(
    importlib.util.find_spec("pyarrow") is None, reason="parquet needs the parquet extra"
)
if importlib.util.find_spec("pyarrow") is not None:
    import pyarrow.parquet  # noqa: F401  (before pytester's snapshot of sys.modules)


def _latin1_jsonl(path: Path) -> int:
    """A toy file whose third row is Latin-1; returns the bad byte's offset in the file."""
    rows = toy_rows()
    head = "".join(json.dumps(r) + "\n" for r in rows[:2]).encode()
    bad = json.dumps(dict(rows[2], description=LATIN), ensure_ascii=False).encode("latin-1")
    path.write_bytes(head + bad + b"\n")
    return len(head) + bad.index(b"\xe8")


def _collect(pytester: pytest.Pytester, dataset: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(
        "--pau-model=local", f"--pau-dataset={dataset}", "--collect-only", "-p", "no:cacheprovider"
    )


def _usage_error(result: pytest.RunResult) -> str:
    text = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, text
    assert "INTERNALERROR" not in text
    assert "Traceback" not in text
    return text


@needs_datasets
def test_a_latin1_file_in_an_hf_folder_names_the_file_line_and_offset(
    pytester: pytest.Pytester,
) -> None:
    folder = pytester.path / "set"
    folder.mkdir()
    offset = _latin1_jsonl(folder / "test.jsonl")
    text = _usage_error(_collect(pytester, "hf:./set"))
    assert (
        f"hf:./set: set/test.jsonl line 3: not UTF-8 text: byte 0xe8 at byte offset {offset}"
    ) in text
    assert "iconv -f latin1 -t utf-8" in text


def _parquet_with_latin1(path: Path) -> None:
    """A parquet file whose ``description`` value is Latin-1 bytes flagged as UTF-8 text.

    pyarrow refuses to build such a column from Python strings; other writers do not, and
    ``from_buffers`` skips the check the same way.
    """
    import pyarrow as pa  # imported by the module already (see above), so not twice
    import pyarrow.parquet as pq

    rows = toy_rows()[:2]
    columns = {key: pa.array([r[key] for r in rows]) for key in rows[0]}
    values = [rows[0]["description"].encode(), LATIN.encode("latin-1")]
    offsets = pa.array([0, len(values[0]), len(values[0]) + len(values[1])], type=pa.int32())
    columns["description"] = pa.Array.from_buffers(
        pa.string(), 2, [None, offsets.buffers()[1], pa.py_buffer(b"".join(values))]
    )
    pq.write_table(pa.table(columns), path)


@needs_pyarrow
def test_a_parquet_value_that_is_not_utf8_names_the_row_and_field(
    pytester: pytest.Pytester,
) -> None:
    _parquet_with_latin1(pytester.path / "set.parquet")
    text = _usage_error(_collect(pytester, "set.parquet"))
    assert "set.parquet row 1, field 'description': not UTF-8 text: byte 0xe8" in text


@needs_pyarrow
@needs_datasets
def test_the_same_parquet_through_hf_names_the_row_and_field(pytester: pytest.Pytester) -> None:
    (pytester.path / "pq").mkdir()
    _parquet_with_latin1(pytester.path / "pq" / "test.parquet")
    text = _usage_error(_collect(pytester, "hf:./pq"))
    assert "hf:./pq[test] row 1, field 'description': not UTF-8 text: byte 0xe8" in text


def test_a_folder_or_another_file_type_as_dataset_says_what_it_is(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "data").mkdir()
    (pytester.path / "data" / "part.jsonl").write_text("{}\n")
    text = _usage_error(_collect(pytester, "data"))
    assert "data: is a directory; pass a .jsonl or .parquet file" in text
    assert "(it holds part.jsonl), or hf:data to read the folder" in text
    assert "unknown dataset" not in text
    (pytester.path / "rows.json").write_text("[]\n")
    text = _usage_error(_collect(pytester, "rows.json"))
    assert "rows.json: expected a .jsonl or .parquet file in PAU's column format, got" in text


# -- --pau-plots and --pau-html when matplotlib cannot be imported --------------------------

#: A matplotlib that is installed but does not import (a missing shared library).
BROKEN = 'raise ImportError("libfreetype.so.6: cannot open shared object file")\n'
#: No matplotlib at all, as where the plots extra was not installed.
ABSENT = 'import sys\nsys.modules["matplotlib"] = None\n'


def _block_matplotlib(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """Make the subprocess runs see no matplotlib, or a broken one, through PYTHONPATH."""
    folder = pytester.path / "_blocker"
    if how == "broken":
        (folder / "matplotlib").mkdir(parents=True)
        (folder / "matplotlib" / "__init__.py").write_text(BROKEN)
    else:
        folder.mkdir()
        (folder / "sitecustomize.py").write_text(ABSENT)
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    )


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("absent", "plots need matplotlib, which is not installed; install the plots extra"),
        (
            "broken",
            "plots need matplotlib, which is installed but cannot be imported (ImportError: "
            "libfreetype.so.6: cannot open shared object file)",
        ),
    ],
)
def test_plots_without_an_importable_matplotlib_fail_before_any_model_call(
    pau_pytester: pytest.Pytester,
    run_pau: Callable[..., pytest.RunResult],
    scoring_llm: ScriptedLLM,
    monkeypatch: pytest.MonkeyPatch,
    how: str,
    said: str,
) -> None:
    _block_matplotlib(pau_pytester, monkeypatch, how)
    before = scoring_llm.requests
    result = run_pau("-m", "smoke", "--pau-plots=plots", "--pau-no-cache", subprocess=True)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert f"ERROR: --pau-plots='plots': {said}" in result.stderr.str()
    assert scoring_llm.requests == before, "nothing was paid for"
    assert not (pau_pytester.path / "plots").exists()


def test_the_html_page_says_why_it_has_no_plots(
    pau_pytester: pytest.Pytester,
    run_pau: Callable[..., pytest.RunResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _block_matplotlib(pau_pytester, monkeypatch, "broken")
    result = run_pau("-m", "smoke", "--pau-html=r.html", "--pau-no-cache", subprocess=True)
    result.assert_outcomes(passed=2)
    page = (pau_pytester.path / "r.html").read_text()
    assert "No plots: plots need matplotlib, which is installed but cannot be imported" in page
