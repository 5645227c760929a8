"""``--pau-shard=K/N`` and ``pau merge``: three shards make the serial run, or merge refuses.

The toy dataset under a scripted judge that grades each instance its own way (5 for the
exact descriptions, 2 for ``tricky``, no rating for ``boom``): one serial run and three
shard runs with the same gates and baseline. The merged report must equal the serial
report field by field (figures, intervals, failure modes, calibration line, every gate
verdict, every item); a missing shard, a duplicated shard and a shard with another judge
each make ``pau merge`` exit 1, naming the cause.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.cli.main import main as pau
from pytest_pau.models import InstanceResult, Report
from pytest_pau.plugin.shard import (
    CACHED_COST,
    MARKER_MODEL,
    UNCACHED_COST,
    partition,
    shard_part,
)
from pytest_pau.report.json_report import read_report
from pytest_pau.settings import PauSettings
from pytest_pau.testing import ScriptedLLM

from .test_xdist import TIMING
from .toy import TOY_IDS

Run = Callable[..., pytest.RunResult]
#: Summary fields that depend on time or on each process's connection cap.
VOLATILE_SUMMARY = {"wall_s", "item_time_s"} | (TIMING - {"duration_s", "ended_at"})
VOLATILE_ITEM = TIMING
GATES = ("--pau-min-pass-rate=0.9", "--pau-min-mean-match=0.5", "--pau-min-mean-judge=3")


def item(result: InstanceResult) -> dict[str, Any]:
    data = result.model_dump(exclude=VOLATILE_ITEM)
    for step in data["trajectory"]:
        if step.get("result"):
            step["result"].pop("duration_s", None)
            step["result"].pop("fuel", None)
    return data


def comparable(report: Report) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """The summary, the run block and the items, without what depends on time or machine."""
    run = report.run.model_dump(exclude={"started", "finished", "host", "python", "shard"})
    return (
        report.summary.model_dump(exclude=VOLATILE_SUMMARY),
        run,
        [item(r) for r in report.instances],
    )


def merge(*args: str | Path) -> int:
    return pau(["merge", *(str(a) for a in args)])


# -- the partition ------------------------------------------------------------------------


def test_the_partition_is_deterministic_disjoint_and_balanced_by_uncached_cost() -> None:
    ids = [f"s/{k:03d}" for k in range(100)]
    cached = set(ids[:80])  # a re-run after 20 instances were added at the end
    parts = partition(ids, cached, 3)
    assert parts == partition(
        list(ids), list(reversed(sorted(cached))), 3
    )  # same input, same parts
    assert sorted(i for p in parts for i in p) == ids
    for p in parts:
        assert p == sorted(p, key=ids.index)  # each part keeps the selection's order
    new = [sum(i not in cached for i in p) for p in parts]
    assert sorted(new) == [6, 7, 7]  # the 20 new ones spread evenly, not by position
    costs = [sum(CACHED_COST if i in cached else UNCACHED_COST for i in p) for p in parts]
    assert max(costs) - min(costs) <= UNCACHED_COST
    # By count alone (position order) one part would get 20 new items and the others none.
    assert partition(ids, set(), 3) == [ids[0::3], ids[1::3], ids[2::3]]
    assert shard_part(ids[:2], set(), 3, 3) == []


def test_a_bad_shard_and_a_shard_with_early_stop_are_usage_errors(run_pau: Run) -> None:
    for bad in ("0/3", "4/3", "3", "a/b"):
        result = run_pau(f"--pau-shard={bad}")
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        result.stderr.fnmatch_lines(["*expected K/N with 1 <= K <= N*"])
    result = run_pau("--pau-shard=1/2", "--pau-early-stop", "--pau-min-pass-rate=0.5")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--pau-early-stop cannot be combined with --pau-shard=1/2*per-shard one*pau merge*"]
    )


# -- three shards make the serial run -----------------------------------------------------


@pytest.mark.slow
def test_three_shards_merge_to_the_serial_run_and_a_bad_set_is_refused(
    run_pau: Run,
    pau_pytester: pytest.Pytester,
    scoring_llm: ScriptedLLM,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = pau_pytester.path
    monkeypatch.chdir(path)
    # The released model's report, for the regression gate (and every answer cached).
    run_pau("--pau-report=base.json")
    # The judge counts as embedded, so the summary has a calibration line to compare.
    monkeypatch.setattr(
        PauSettings,
        "low_fidelity_roles",
        lambda self: [("judge", self.judge_model, "--pau-judge-model")],
    )
    args = (*GATES, "--pau-gate-on-ci", "--pau-baseline=base.json")
    serial = run_pau(*args, "--pau-report=serial.json")
    assert serial.ret == pytest.ExitCode.TESTS_FAILED  # the pass-rate gate fails
    shards = []
    for k in (1, 2, 3):
        shard = run_pau(*args, f"--pau-shard={k}/3", f"--pau-report=shard-{k}.json")
        shard.stdout.fnmatch_lines(
            [
                f"*note: shard {k}/3: these figures are of this part of the selection only*",
                f"PAU shard {k}/3: release gates left to `pau merge --gate` over all shards*",
            ]
        )
        assert "release gates\n" not in shard.stdout.str()  # no per-shard verdict
        shards.append(read_report(path / f"shard-{k}.json"))
    own = [s.shard.own for s in shards if s.shard]
    assert sorted(i for part in own for i in part) == sorted(TOY_IDS)
    # Balanced by expected cost: every answer is cached but boom's (its judge never rates,
    # so it has no finished-item row), and the one uncached item is a shard's whole part.
    assert sorted(len(part) for part in own) == [1, 2, 2]
    assert ["toy/boom"] in own
    for s in shards:
        assert s.shard is not None
        assert s.shard.selection == TOY_IDS
        assert [i.id for i in s.instances] == s.shard.own

    assert merge(*(path / f"shard-{k}.json" for k in (1, 2, 3)), "-o", "merged.json") == 0
    out = capsys.readouterr().out
    assert "PAU report: " in out
    assert "merged from 3 shards" in out
    assert "pau merge without --gate exits 0; with --gate it would exit 1" in out
    merged, reference = read_report(path / "merged.json"), read_report(path / "serial.json")
    assert merged.shard is None
    assert merged.run.shard is None
    assert merged.summary.gates
    assert merged.summary.baseline is not None
    assert merged.summary.calibration is not None
    assert comparable(merged) == comparable(reference)
    assert merged.notes == reference.notes
    # --gate: the exit status pytest gave the serial run, and its closing line.
    gated = ("-o", "m2.json", "--gate", "--markdown", "m2.md", "--html", "m2.html")
    assert merge(*(path / f"shard-{k}.json" for k in (1, 2, 3)), *gated) == 1
    assert (path / "m2.md").read_text().startswith("### PAU: ❌ release gate failed (")
    assert "<h2>Summary</h2>" in (path / "m2.html").read_text()
    (closing,) = [ln for ln in serial.stdout.lines if ln.startswith("PAU release gate failed")]
    assert "--pau-min-pass-rate=0.9" in closing
    assert closing.endswith("exit status 1")
    assert closing in capsys.readouterr().out.splitlines()

    # A missing shard, a shard given twice, a shard with another judge: refused.
    assert merge(path / "shard-1.json", path / "shard-2.json", "-o", "bad.json") == 1
    err = capsys.readouterr().err
    assert "shard 3/3 is missing (given: 1/3 from" in err
    twice = [path / f"shard-{k}.json" for k in (1, 2, 2, 3)]
    assert merge(*twice, "-o", "bad.json") == 1
    assert "shard 2/3 is given twice:" in capsys.readouterr().err
    other_judge = "--pau-judge-model=openai/another-judge"
    # (without the baseline, which a run refuses for another judge before any call)
    run_pau(
        *GATES, "--pau-gate-on-ci", "--pau-shard=3/3", "--pau-report=shard-3b.json", other_judge
    )
    mixed = [path / "shard-1.json", path / "shard-2.json", path / "shard-3b.json"]
    assert merge(*mixed, "-o", "bad.json") == 1
    err = capsys.readouterr().err
    assert "the shards disagree on run field judge_model: " in err
    assert "'openai/another-judge' in " in err
    assert "shard-3b.json" in err
    assert not (path / "bad.json").exists()
    # The output may never be one of the shards.
    assert merge(*(path / f"shard-{k}.json" for k in (1, 2, 3)), "-o", "shard-1.json") == 1
    assert "writing -o would overwrite one of the shards' reports" in capsys.readouterr().err


def test_merge_refuses_shards_of_other_selections_or_caches(tmp_path: Path, capsys) -> None:
    """The selection and partition checks, on reports edited the way other runs differ."""
    from pytest_pau.models import RunInfo, ShardInfo

    def shard(k: int, own: list[str], **info: Any) -> Path:
        run = RunInfo(
            plugin_version="1", model="m", judge_model="j", coder_model="c", dataset="d",
            split="test", mode="interactive", seed=0, max_iterations=20, shard=f"{k}/2",
        )  # fmt: skip
        fields: dict[str, Any] = {"selection": ["a", "b", "c"], "own": own, "cached": []}
        fields.update(info)
        report = Report(run=run, shard=ShardInfo(index=k, count=2, **fields))
        path = tmp_path / f"s{k}-{len(list(tmp_path.iterdir()))}.json"
        path.write_text(report.model_dump_json())
        return path

    cases = [
        (
            [shard(1, ["a", "b"]), shard(2, ["c"], selection=["a", "b", "x"])],
            "the shards selected different instances",
        ),
        (
            [shard(1, ["a", "c"]), shard(2, ["b", "c"], cached=["c"])],
            "the shards were partitioned from different caches",
        ),
        (
            [shard(1, ["a", "b"]), shard(2, ["b"])],
            "ran in more than one shard (b; b in shards 1/2, 2/2)",
        ),
        ([shard(1, ["a"]), shard(2, ["b"])], "1 selected instance ran in no shard (c)"),
        (
            [shard(1, ["a", "b"]), shard(2, ["c"], settings={"judge_samples": 3})],
            "the shards disagree on setting judge_samples",
        ),
        (
            [shard(1, ["a", "b"]), shard(2, ["c"], instances_digest="other")],
            "the shards ran other contents under the same instance ids",
        ),
    ]
    for paths, expected in cases:
        assert merge(*paths, "-o", tmp_path / "out.json") == 1
        assert expected in capsys.readouterr().err, expected
    plain = tmp_path / "plain.json"
    plain.write_text(Report(run=RunInfo(
        plugin_version="1", model="m", judge_model="j", coder_model="c", dataset="d",
        split="test", mode="interactive", seed=0, max_iterations=20,
    )).model_dump_json())  # fmt: skip
    assert merge(plain, "-o", tmp_path / "out.json") == 1
    assert "is not a shard's report (it was run without --pau-shard=K/N)" in (
        capsys.readouterr().err
    )


@pytest.mark.slow
def test_a_shard_under_xdist_records_the_whole_selection(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    # The controller does not collect under xdist: its workers tell it the selection.
    result = run_pau("-n", "2", "--pau-shard=2/3", "--pau-report=s.json", subprocess=True)
    result.stdout.fnmatch_lines(["*2 workers [[]2 items[]]*"])
    report = read_report(pau_pytester.path / "s.json")
    assert report.shard is not None
    assert report.shard.selection == TOY_IDS
    part = partition(TOY_IDS, [], 3)[1]  # a new cache: nothing counted as cached
    assert report.shard.own == part
    assert [i.id for i in report.instances] == part


def test_two_shards_caches_imported_into_one_answer_a_rerun_with_no_request(
    pau_pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from .test_concurrency import RULES, args, write_dataset

    path = pau_pytester.path
    monkeypatch.chdir(path)
    # Run in-process: the outer xdist worker's count must not split the cap here too.
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    write_dataset(path, 6)
    with ScriptedLLM(RULES) as llm:  # the model under test, the judge and the coder
        for k in (1, 2):  # two machines, two caches
            shard = pau_pytester.runpytest(
                *args(llm, f"--pau-shard={k}/2", f"--pau-cache-dir=c{k}", f"--pau-report=s{k}.json")
            )
            shard.assert_outcomes(failed=3)
            # --pau-max-connections (64) is the whole run's: each of the 2 shards gets 32.
            caps = read_report(path / f"s{k}.json").summary.connection_caps
            assert set(caps.values()) == {32}
            assert pau(["cache", "export", f"c{k}.sqlite3", "--cache-dir", f"c{k}"]) == 0
        asked = llm.requests
        assert pau(["cache", "import", "c1.sqlite3", "c2.sqlite3", "--cache-dir", "merged"]) == 0
        assert "entries added from 2 file(s)" in capsys.readouterr().out
        again = pau_pytester.runpytest(*args(llm, "--pau-cache-dir=merged", "--pau-report=r.json"))
        again.assert_outcomes(failed=6)
        assert llm.requests == asked  # the whole selection, and not one request
    summary = read_report(path / "r.json").summary
    assert summary.requests == 0
    assert summary.cache_hits == summary.model_calls > 0


def test_other_tests_run_in_shard_one_only_and_an_empty_shard_exits_0(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    pau_pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    first = run_pau("-k", "double or plain", "--pau-shard=1/3", "--pau-report=a.json")
    first.assert_outcomes(passed=2)  # toy/double and the project's own test
    second = run_pau("-k", "double or plain", "--pau-shard=2/3", "--pau-report=b.json")
    assert second.ret == pytest.ExitCode.OK  # not 5: more shards than instances is no failure
    second.assert_outcomes()
    second.stdout.fnmatch_lines(
        ["PAU shard 2/3: none of the 1 selected instance falls in this part (3 shards for 1)*"]
    )
    report = read_report(pau_pytester.path / "b.json")
    assert report.shard is not None
    assert (report.shard.selection, report.shard.own) == (["toy/double"], [])


def test_shards_run_one_after_another_on_one_cache_keep_the_first_shards_plan(
    run_pau: Run,
    pau_pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Shard 1 leaves finished-item rows behind; shard 2, later on the same cache, would
    # count those items as cached and deal the selection out differently without the plan.
    monkeypatch.chdir(pau_pytester.path)
    select = ("-k", "not boom")
    for k in (1, 2):
        run_pau(*select, f"--pau-shard={k}/2", f"--pau-report=s{k}.json")
    plans = [read_report(pau_pytester.path / f"s{k}.json").shard for k in (1, 2)]
    assert plans[0] is not None
    assert plans[1] is not None
    assert plans[0].cached == plans[1].cached == []  # both dealt from the cache shard 1 saw
    assert merge("s1.json", "s2.json", "-o", "m.json") == 0
    capsys.readouterr()
    # Another split of the selection (or another selection) gets a new plan, from the
    # finished-item rows the two shards left: every item of it is cached now.
    run_pau(*select, "--pau-shard=1/3", "--pau-report=n1.json")
    shard = read_report(pau_pytester.path / "n1.json").shard
    assert shard is not None
    assert shard.cached == [i for i in TOY_IDS if i != "toy/boom"]
    assert main_cache_info(pau_pytester.path) >= {"pytest-pau/shard-plans", MARKER_MODEL}


def main_cache_info(folder: Path) -> set[str]:
    from pytest_pau.llm.cache.info import cache_info

    return {m.model for m in cache_info(folder / ".pau_cache", check=False).models}


SKIP_DOUBLE = """
import pytest

def pytest_collection_modifyitems(items):
    for item in items:
        if item.name.endswith("[toy/double]"):
            item.add_marker(pytest.mark.skip(reason="not today"))
"""


def test_a_skip_marked_item_leaves_the_merged_selection_as_it_leaves_the_serial_run(
    run_pau: Run,
    pau_pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = pau_pytester.path
    monkeypatch.chdir(path)
    pau_pytester.makeconftest(SKIP_DOUBLE)
    args = ("-k", "not boom", "--pau-min-mean-judge=1")
    serial = run_pau(*args, "--pau-report=serial.json")
    for k in (1, 2):
        run_pau(*args, f"--pau-shard={k}/2", f"--pau-report=shard-{k}.json")
    code = merge(path / "shard-1.json", path / "shard-2.json", "-o", "merged.json", "--gate")
    capsys.readouterr()
    merged, reference = read_report(path / "merged.json"), read_report(path / "serial.json")
    # Before: the merge counted toy/double as unknown (not run) where the serial run left
    # it out of the selection: "not decided" against "passed".
    assert [g.population for g in merged.summary.gates] == [len(TOY_IDS) - 2]
    assert [g.population for g in reference.summary.gates] == [len(TOY_IDS) - 2]
    assert merged.summary.verdict is not None
    assert reference.summary.verdict is not None
    assert merged.summary.verdict.status == reference.summary.verdict.status == "passed"
    assert code == serial.ret == pytest.ExitCode.OK


def test_a_huge_shard_count_deals_the_selection_only(
    pau_pytester: pytest.Pytester, run_pau
) -> None:
    from pytest_pau.plugin.shard import partition, shard_part

    ids = ["t/a", "t/b", "t/c"]
    assert len(partition(ids, [], 10**12)) == 3  # was: a list of 10^12 parts, MemoryError
    assert shard_part(ids, [], 10**12, 2) == ["t/b"]
    assert shard_part(ids, [], 10**12, 10**12) == []
    result = run_pau(
        "-m", "smoke", "--pau-shard=1/1000000000000", "--pau-report=s.json", "--pau-no-cache"
    )
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    report = read_report(pau_pytester.path / "s.json")
    assert report.shard is not None
    assert report.shard.count == 10**12
    assert report.shard.own == report.shard.selection[:1]
