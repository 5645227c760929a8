"""A shard count far above the selection deals the selection, never ``range(count)``."""

from __future__ import annotations

import pytest

from pytest_pau.report.json_report import read_report


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
