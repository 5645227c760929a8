"""``pau merge``'s coverage check reads the selection a bounded number of times, not once per
item: with 20,000 items the check alone took over a minute on a loaded machine (every item
built a set of the whole selection again), so the merge of a large run looked hung."""

from __future__ import annotations

from collections.abc import Iterator

from pytest_pau.models import ShardInfo
from pytest_pau.report.shards import _coverage


class CountedList(list[str]):
    """A selection that counts how often it is read whole."""

    reads = 0

    def __iter__(self) -> Iterator[str]:
        CountedList.reads += 1
        return super().__iter__()


def test_the_coverage_check_reads_the_selection_a_few_times_not_once_per_item() -> None:
    ids = [f"s/i{i:05d}" for i in range(2000)]
    parts = [
        ("shard-1.json", ShardInfo(index=1, count=2, selection=ids, own=ids[::2], cached=[])),
        ("shard-2.json", ShardInfo(index=2, count=2, selection=ids, own=ids[1::2], cached=[])),
    ]
    selection = CountedList(ids)
    CountedList.reads = 0
    assert _coverage(parts, selection) == []
    assert CountedList.reads <= 3  # was 2,001: set(selection) built again for every item
