"""PNG plots: valid files of the fixed size, the data they draw, ``pau plot``."""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.errors import ConfigError
from pytest_pau.report.json_report import write_report
from pytest_pau.report.plots import (
    FIGURE_PX,
    judge_shares,
    match_shares,
    run_labels,
    write_plots,
)
from pytest_pau.settings.gates_and_outputs import PLOT_NAMES

from .conftest import make_report, random_report, result

pytest.importorskip("matplotlib", reason="the plots tests need the plots extra (matplotlib)")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Check every chunk's CRC and the IHDR/IEND framing; return (width, height)."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path.name} is not a PNG"
    pos, chunks = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"{path.name}: bad CRC in {kind!r}"
        chunks.append((kind, body))
        pos += 12 + length
    assert chunks[0][0] == b"IHDR"
    assert chunks[-1][0] == b"IEND"
    width, height = struct.unpack(">II", chunks[0][1][:8])
    return width, height


def test_writes_three_valid_pngs_of_the_fixed_size(tmp_path: Path) -> None:
    reports = [
        random_report(300, seed=0, model="a"),
        random_report(300, seed=1, model="b", skill=0.5),
    ]
    paths = write_plots(reports, tmp_path / "new" / "plots")
    assert [p.name for p in paths] == [f"{n}.png" for n in PLOT_NAMES]
    for path in paths:
        assert png_size(path) == FIGURE_PX
    # A decoder reads them back, and they are not blank: many distinct colours.
    from matplotlib.image import imread

    pixels = imread(paths[0])
    assert pixels.shape[:2] == (FIGURE_PX[1], FIGURE_PX[0])
    assert len({tuple(p) for p in pixels.reshape(-1, pixels.shape[2])[::97]}) > 10


def test_plots_differ_when_the_data_differs(tmp_path: Path) -> None:
    good = make_report([result(f"i{k}", 5, 1.0) for k in range(20)])
    bad = make_report([result(f"i{k}", 1, 0.0) for k in range(20)])
    a = write_plots([good], tmp_path / "good")
    b = write_plots([bad], tmp_path / "bad")
    again = write_plots([good], tmp_path / "again")
    assert a[0].read_bytes() != b[0].read_bytes()
    assert a[0].read_bytes() == again[0].read_bytes(), "plots are deterministic"


def test_share_helpers_bin_scores_like_the_figures() -> None:
    rows = [
        result("a", 1, 0.0),
        result("b", 2.5, 0.19),
        result("c", 5, 0.8),
        result("d", None, 1.0),
    ]
    assert judge_shares(rows) == pytest.approx([1 / 3, 0, 1 / 3, 0, 1 / 3])  # 2.5 rounds up to 3
    assert match_shares(rows) == pytest.approx([0.5, 0, 0, 0, 0.25, 0.25])
    assert judge_shares([]) == [0.0] * 5


def test_repeated_models_get_distinct_labels() -> None:
    reps = [make_report([result("x")], model="m"), make_report([result("x")], model="m")]
    assert run_labels(reps) == ["m", "m #2"]


def test_empty_or_errored_runs_still_draw(tmp_path: Path) -> None:
    rep = make_report([result("x", None, None, error="outage")])
    for path in write_plots([rep], tmp_path):
        assert png_size(path) == FIGURE_PX


def test_no_report_and_no_matplotlib_are_clear_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ConfigError, match="at least one report"):
        write_plots([], tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ConfigError, match=r"pip install 'pytest-pau\[plots\]'"):
        write_plots([make_report([result("x")])], tmp_path)


def test_pau_plot_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write_report(tmp_path / "a.json", random_report(100, seed=0))
    b = write_report(tmp_path / "b.json", random_report(100, seed=1, model="model-b"))
    out_dir = tmp_path / "figs"
    assert (
        main(["plot", str(a), str(b), "--out", str(out_dir), "--html", str(tmp_path / "a.html")])
        == 0
    )
    printed = capsys.readouterr().out.split()
    assert printed[:3] == [str(out_dir / f"{n}.png") for n in PLOT_NAMES]
    assert all(png_size(out_dir / f"{n}.png") == FIGURE_PX for n in PLOT_NAMES)
    assert (tmp_path / "a.html").read_text().startswith("<!DOCTYPE html>")
