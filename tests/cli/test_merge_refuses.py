"""``pau merge`` refuses what it cannot merge honestly, and never writes over what it reads.

Shard reports are built as a run writes them (the models, dumped to JSON) and then edited
the way a hostile or damaged file differs; every case goes through the real ``pau merge``
command. The outputs' own cases (a shard, the baseline, another output, a folder, a FIFO, a
place that cannot be written, a symbolic-link loop) are the one output guard's
(:mod:`pytest_pau.files.guard`), which every writer of the product uses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.cli.main import main
from pytest_pau.models import InstanceResult, Report, RunInfo, ShardInfo

SELECTION = ["s/a", "s/b", "s/c"]
PARTS = {1: ["s/a", "s/c"], 2: ["s/b"]}


def merge(*args: str | Path) -> int:
    return main(["merge", *(str(a) for a in args)])


def item(instance: str, judge: float = 4.0, match: float = 1.0) -> InstanceResult:
    return InstanceResult(
        id=instance, source="s", arity=1, passed=True, judge_score=judge, code_match=match
    )


def shard_report(k: int, count: int = 2, **info: Any) -> Report:
    run = RunInfo(
        plugin_version="1", model="m", judge_model="j", coder_model="c", dataset="d",
        split="test", mode="interactive", seed=0, max_iterations=20, shard=f"{k}/{count}",
    )  # fmt: skip
    fields: dict[str, Any] = {"selection": SELECTION, "own": PARTS.get(k, []), "cached": []}
    fields.update(info)
    instances = [item(i) for i in fields["own"]]
    return Report(run=run, instances=instances, shard=ShardInfo(index=k, count=count, **fields))


def write_shards(folder: Path, **info: Any) -> list[Path]:
    paths = []
    for k in (1, 2):
        path = folder / f"shard-{k}.json"
        path.write_text(shard_report(k, **info).model_dump_json(indent=1))
        paths.append(path)
    return paths


def contents(*paths: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in paths}


# -- the outputs: one guard -------------------------------------------------------------


def test_the_shards_merge_with_every_output_written(tmp_path: Path, capsys) -> None:
    shards = write_shards(tmp_path)
    out, md, html = tmp_path / "out.json", tmp_path / "out.md", tmp_path / "out.html"
    assert merge(*shards, "-o", out, "--markdown", md, "--html", html) == 0, capsys.readouterr()
    assert out.is_file()
    assert md.is_file()
    assert html.is_file()


@pytest.mark.parametrize("option", ["--markdown", "--html"])
def test_no_output_may_name_a_shard(tmp_path: Path, option: str, capsys) -> None:
    shards = write_shards(tmp_path)
    before = contents(*shards)
    out = tmp_path / "out.json"
    assert merge(*shards, "-o", out, option, shards[0]) == 1
    err = capsys.readouterr().err
    assert f"{option}={str(shards[0])!r} and shard {str(shards[0])!r}: writing {option} " in err
    assert "would overwrite one of the shards' reports" in err
    assert "Checked before anything was written" in err
    assert contents(*shards) == before
    assert not out.exists()


def test_two_outputs_may_not_name_one_file(tmp_path: Path, capsys) -> None:
    shards = write_shards(tmp_path)
    out = tmp_path / "out.json"
    assert merge(*shards, "-o", out, "--html", out) == 1
    assert f"both write {str(out)!r}: one would overwrite the other" in capsys.readouterr().err
    assert not out.exists()


def test_the_output_never_replaces_the_shards_baseline(tmp_path: Path, capsys) -> None:
    base = tmp_path / "base.json"
    base.write_text("the released model's report\n")
    shards = write_shards(tmp_path, settings={"baseline": str(base)})
    assert merge(*shards, "-o", base) == 1
    err = capsys.readouterr().err
    assert "writing -o would overwrite the baseline report" in err
    assert base.read_text() == "the released model's report\n"  # the gate's yardstick kept


def test_an_output_that_is_a_folder_is_refused_before_anything_is_written(
    tmp_path: Path, capsys
) -> None:
    shards = write_shards(tmp_path)
    folder = tmp_path / "reports"
    folder.mkdir()
    md = tmp_path / "out.md"
    assert merge(*shards, "-o", tmp_path / "out.json", "--markdown", md, "--html", folder) == 1
    err = capsys.readouterr().err
    assert f"--html={str(folder)!r}: cannot write the file there (it is a folder)" in err
    assert "Traceback" not in err
    assert "IsADirectoryError" not in err
    assert set(tmp_path.iterdir()) == {*shards, folder}  # not the JSON nor the Markdown first


def test_an_output_that_is_a_fifo_is_left_a_fifo(tmp_path: Path, capsys) -> None:
    shards = write_shards(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert merge(*shards, "-o", fifo) == 1
    assert "is a named pipe (FIFO), not a regular file" in capsys.readouterr().err
    assert fifo.is_fifo()


def test_an_output_where_nothing_can_be_written_is_a_clear_error(tmp_path: Path, capsys) -> None:
    shards = write_shards(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert merge(*shards, "-o", blocker / "out.json") == 1
    err = capsys.readouterr().err
    assert f"-o={str(blocker / 'out.json')!r}: cannot write the file there" in err
    assert "is not a folder" in err
    assert "FileExistsError" not in err
    assert "NotADirectoryError" not in err


def test_an_output_on_a_symbolic_link_loop_is_a_usage_error_naming_it(
    tmp_path: Path, capsys
) -> None:
    shards = write_shards(tmp_path)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert merge(*shards, "-o", loop) == 1
    err = capsys.readouterr().err
    assert f"-o={str(loop)!r}: {str(loop)!r} cannot be resolved: it is a symbolic-link loop" in err
    assert "RuntimeError" in err or "Errno 40" in err  # the cause, quoted once
    assert "Traceback" not in err


# -- the inputs: a regular file, checked before it is opened ------------------------------


def test_a_shard_that_is_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    shards = write_shards(tmp_path)
    fifo = tmp_path / "shard-2.json"
    fifo.unlink()
    os.mkfifo(fifo)
    run = subprocess.run(
        [sys.executable, "-m", "pytest_pau", "merge", *map(str, shards), "-o", "out.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,  # before: blocked in open() until something wrote to the pipe
    )
    assert run.returncode == 1, run.stderr
    assert f"{str(fifo)!r} is a named pipe (FIFO), not a regular file; it was not read" in (
        run.stderr
    )


# -- what cannot be merged honestly ---------------------------------------------------------


def test_a_shard_holding_an_item_twice_is_refused_naming_the_item_and_the_shard(
    tmp_path: Path, capsys
) -> None:
    shards = write_shards(tmp_path)
    data = json.loads(shards[0].read_text())
    twice = dict(data["instances"][0], judge_score=1.0)  # the same item, judged 5 then 1
    data["instances"][0]["judge_score"] = 5.0
    data["instances"].append(twice)
    shards[0].write_text(json.dumps(data))
    out = tmp_path / "out.json"
    assert merge(*shards, "-o", out) == 1
    err = capsys.readouterr().err
    assert f"{shards[0]} holds two results for 's/a'; a shard's report has one per item" in err
    assert not out.exists()


def test_a_shard_index_above_its_count_is_refused(tmp_path: Path, capsys) -> None:
    one = tmp_path / "one.json"
    one.write_text(shard_report(1).model_dump_json())
    three = tmp_path / "three.json"
    three.write_text(shard_report(3, own=["s/b"]).model_dump_json())  # "3/2"
    out = tmp_path / "out.json"
    assert merge(one, three, "-o", out) == 1
    err = capsys.readouterr().err
    assert f"{three} says it is shard 3/2, which no run is: K/N needs 1 <= K <= N" in err
    assert not out.exists()


def test_a_count_of_ten_to_the_twelve_is_answered_at_once(tmp_path: Path) -> None:
    shards = []
    for k in (1, 2):
        path = tmp_path / f"shard-{k}.json"
        path.write_text(shard_report(k, count=10**12).model_dump_json())
        shards.append(path)
    run = subprocess.run(
        [sys.executable, "-m", "pytest_pau", "merge", *map(str, shards), "-o", "out.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,  # before: a loop over range(10**12), MemoryError after minutes
    )
    assert run.returncode == 1, run.stderr
    assert (
        "shards 3/1000000000000, 4/1000000000000, 5/1000000000000, 6/1000000000000, "
        "7/1000000000000, +999,999,999,993 more are missing" in run.stderr
    )
    assert len(run.stderr) < 2000


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("self_code_match", "NaN"),
        ("judge_score", "NaN"),
        ("code_match", "Infinity"),
        ("judge_logprob_score", "NaN"),
        ("judge_spread", "-Infinity"),
    ],
)
def test_a_score_that_is_no_number_is_refused_naming_the_field(
    tmp_path: Path, field: str, value: str, capsys
) -> None:
    shards = write_shards(tmp_path)
    data = json.loads(shards[1].read_text())
    data["instances"][0][field] = "@@"
    shards[1].write_text(json.dumps(data).replace('"@@"', value))
    out = tmp_path / "out.json"
    assert merge(*shards, "-o", out) == 1
    err = capsys.readouterr().err
    assert (
        f"{str(shards[1])!r} is not a pytest-pau JSON report: line 1: at instances[0].{field}:"
        in err
    )
    assert "finite number" in err
    assert not out.exists()


# -- bounded messages -----------------------------------------------------------------------


def test_a_shard_that_does_not_parse_is_quoted_briefly(tmp_path: Path, capsys) -> None:
    shards = write_shards(tmp_path)
    text = shards[1].read_text()
    shards[1].write_text(text + "x" * 11_000)  # 11 KB of trailing junk
    assert merge(*shards, "-o", tmp_path / "out.json") == 1
    err = capsys.readouterr().err
    assert (
        f"{str(shards[1])!r} is not a pytest-pau JSON report: at (top level): Invalid JSON" in err
    )
    assert "characters in all)" in err
    assert len(err) < 1000  # was the whole file, 11.5 KB


def test_a_shards_huge_machine_note_is_not_printed_whole(tmp_path: Path, capsys) -> None:
    note = "cache note: " + "n" * 1_000_000
    shards = write_shards(tmp_path, notes=[note])
    out = tmp_path / "out.json"
    assert merge(*shards, "-o", out) == 0
    printed = capsys.readouterr().out
    assert "cache note: nnn" in printed
    assert "more chars]" in printed
    assert len(printed) < 20_000
    assert all(len(n) < 3000 for n in json.loads(out.read_text())["notes"])
