"""The judge check's decoy: plausible, never the item's own description, seeded."""

from __future__ import annotations

import pytest

from pytest_pau.models import Example, Instance
from pytest_pau.scoring.decoy import (
    argument_types,
    check_sample,
    choose_decoy,
    decoys_for,
    sample_decoys,
)
from pytest_pau.settings import PauSettings


def inst(id: str, description: str, inputs: list[str], *, arity: int | None = None) -> Instance:
    n = arity if arity is not None else inputs[0].count(",") or 1
    args = ", ".join(f"arg{i}" for i in range(n))
    return Instance(
        id=id,
        source="t",
        code=f"def test_func({args}):\n    return 0\n",
        header=f"def test_func({args}):",
        description=description,
        train_examples=[Example(input=i, output="0") for i in inputs],
        test_examples=[Example(input=inputs[0], output="0")],
        arity=n,
    )


ITEM = inst("t/sum", "Returns the sum of the numbers in the list.", ["([1, 2],)"], arity=1)
POOL = [
    ITEM,
    # The same text under another id (a duplicate row): never a decoy.
    inst("t/dup", "  returns the SUM of the numbers in the list. ", ["([3],)"], arity=1),
    inst("t/max", "Returns the largest of the numbers in the list.", ["([1, 2],)"], arity=1),
    inst("t/len", "Returns how many items the list has.", ["([1],)"], arity=1),
    inst("t/int", "Returns the sum of the digits of the number.", ["(12,)"], arity=1),
    inst("t/two", "Returns the sum of the numbers in the two lists.", ["([1], [2])"], arity=2),
]


def test_a_description_equal_to_the_items_in_unicode_form_is_never_its_decoy() -> None:
    # The item's own text in full-width letters, with zero-width spaces, or with a soft
    # hyphen: the same description to a reader (and a judge), so no decoy; only t/len is
    # (sweep of issue 40: the full-width copy, sharing every word, was chosen and the judge
    # "could not tell" the gold from itself).
    text = ITEM.description
    copies = [
        inst(
            "t/wide",
            "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text),
            ["([3],)"],
            arity=1,
        ),
        inst("t/zw", text.replace(" ", " \u200b"), ["([3],)"], arity=1),
        inst("t/shy", text.replace("numbers", "num\u00adbers"), ["([3],)"], arity=1),
    ]
    other = inst("t/len", "Returns how many items the list has.", ["([1],)"], arity=1)
    for seed in range(5):
        decoy = choose_decoy(ITEM, [ITEM, *copies, other], seed=seed)
        assert decoy is not None
        assert decoy.id == "t/len"
    assert choose_decoy(ITEM, [ITEM, *copies]) is None


def test_the_decoy_has_the_same_argument_types_and_the_most_shared_words() -> None:
    decoy = choose_decoy(ITEM, POOL, seed=0)
    assert decoy is not None
    # t/two shares more words but takes two lists; t/int shares words but takes an int.
    assert decoy.id == "t/max"
    assert argument_types(decoy) == argument_types(ITEM) == ("list",)


@pytest.mark.parametrize("seed", range(20))
def test_the_decoy_is_never_the_items_own_description(seed: int) -> None:
    for item in POOL:
        decoy = choose_decoy(item, POOL, seed=seed)
        assert decoy is not None
        assert decoy.id != item.id
        assert " ".join(decoy.description.lower().split()) != " ".join(
            item.description.lower().split()
        )


def test_without_another_description_there_is_no_decoy() -> None:
    assert choose_decoy(ITEM, [ITEM, POOL[1]], seed=0) is None


def test_the_decoy_is_deterministic_for_a_seed_and_independent_of_the_pool_order() -> None:
    # Equal candidates (same types, same shared words): the seed breaks the tie.
    item = inst("t/a", "alpha", ["(1,)"])
    pool = [item, *(inst(f"t/b{i}", f"beta {i}", ["(1,)"]) for i in range(12))]
    first = {s: choose_decoy(item, pool, seed=s).id for s in range(12)}  # type: ignore[union-attr]
    again = {s: choose_decoy(item, pool[::-1], seed=s).id for s in range(12)}  # type: ignore[union-attr]
    assert first == again
    assert len(set(first.values())) > 1  # another seed, another tie-break


def test_the_sample_is_seeded_sized_and_independent_of_order() -> None:
    ids = [f"t/{i}" for i in range(30)]
    sample = check_sample(ids, 20, seed=3)
    assert len(sample) == 20
    assert len(set(sample)) == 20
    assert check_sample(ids[::-1], 20, seed=3) == sample
    assert check_sample(ids, 20, seed=4) != sample
    assert sorted(check_sample(ids, None, seed=3)) == sorted(ids)  # all
    assert sorted(check_sample(ids[:5], 20, seed=3)) == sorted(ids[:5])  # all when fewer
    assert check_sample(ids, 0, seed=3) == []  # off


def test_decoys_for_maps_each_sampled_item_to_another_instance() -> None:
    decoys = decoys_for(["t/sum", "t/len", "t/missing"], POOL, seed=0)
    assert set(decoys) == {"t/sum", "t/len"}
    assert all(decoys[i].id != i for i in decoys)


def test_a_runs_sample_keeps_the_items_without_a_decoy_as_none() -> None:
    # t/sum and t/dup say the same: in a pool of the two, neither has a decoy.
    pool = POOL[:2]
    settings = PauSettings(judge_check="all")
    assert sample_decoys(["t/sum", "t/dup"], pool, settings) == {"t/sum": None, "t/dup": None}
    decoys = sample_decoys(["t/sum"], POOL, settings)
    assert list(decoys) == ["t/sum"]
    assert decoys["t/sum"] is not None
