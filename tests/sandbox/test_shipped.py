"""The sandbox component the package ships: present for this install's guest, and behaving
as a component freshly built from the same sources.

componentize-py does not give the same bytes twice (checked: two builds of one guest
differ in size and digest, also with PYTHONHASHSEED fixed), so the check is on behaviour:
every builtin instance on every one of its inputs answers the same through both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_pau.sandbox import build, guest

_CALL_EVERY_BUILTIN_INPUT = """
import json, sys
from pytest_pau import load_dataset
from pytest_pau.sandbox import Sandbox, build

if sys.argv[1] == "rebuild":
    build.build_component(force=True)
origin = build.component_origin()
calls = []
for instance in load_dataset("builtin"):
    with Sandbox(instance.code) as box:
        for example in [*instance.train_examples, *instance.test_examples]:
            r = box.call_literal(example.input)
            calls.append([instance.id, example.input, r.ok, r.value, r.error_type, r.message])
print(json.dumps({"origin": origin[1], "path": str(origin[0]), "calls": calls}))
"""


def test_this_install_ships_a_component_built_from_its_guest() -> None:
    """``pip install`` (editable or not) runs hatch_build.py, which builds the component
    next to the guest sources with a stamp of them; a run then only compiles it."""
    root = build.guest_dir()
    assert guest.shipped(root) is not None, (
        f"no component for this guest in {root} (or its stamp {guest.STAMP} does not match "
        "the sources): the package build hook (hatch_build.py) did not run or the guest "
        "changed since; reinstall with pip install -e ."
    )


def test_a_stamp_that_does_not_match_the_sources_is_not_used(tmp_path: Path) -> None:
    """A guest edited after the install must not run on the component of its old sources."""
    root = tmp_path / "guest"
    for name in guest.GUEST_FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes((build.guest_dir() / name).read_bytes())
    (root / guest.SHIPPED).write_bytes(b"\0asm")
    assert guest.shipped(root) is None  # no stamp
    (root / guest.STAMP).write_text(guest.guest_hash(root) + "\n")
    assert guest.shipped(root) is None  # a stamp without the component's size and digest
    (root / guest.STAMP).write_text(guest._stamp(root, root / guest.SHIPPED))
    assert guest.shipped(root, check_bytes=True) == root / guest.SHIPPED
    (root / guest.SHIPPED).write_bytes(b"\0asn")  # same size, other bytes
    assert guest.shipped(root) == root / guest.SHIPPED
    assert guest.shipped(root, check_bytes=True) is None  # the package build rebuilds it
    (root / guest.SHIPPED).write_bytes(b"\0as")  # cut short
    assert guest.shipped(root) is None
    (root / guest.SHIPPED).write_bytes(b"\0asm")
    with (root / "pau_runner.py").open("a") as f:
        f.write("\n# edited\n")
    assert guest.shipped(root) is None


def _run(mode: str, cache: Path) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", _CALL_EVERY_BUILTIN_INPUT, mode],
        env=dict(os.environ, PAU_USER_CACHE=str(cache)),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.slow
def test_the_shipped_component_behaves_as_a_fresh_build(tmp_path: Path) -> None:
    """Each in an empty user cache: the shipped component (compiled for this CPU on first
    use) and one rebuilt by componentize-py answer every builtin input the same."""
    if guest.shipped(build.guest_dir()) is None:
        pytest.fail(
            "no shipped component: see test_this_install_ships_a_component_built_from_its_guest"
        )
    shipped = _run("shipped", tmp_path / "a")
    rebuilt = _run("rebuild", tmp_path / "b")
    assert shipped["origin"] == "shipped"
    assert rebuilt["origin"] == "built"
    assert Path(str(rebuilt["path"])).is_relative_to(tmp_path / "b")
    assert list((tmp_path / "a").rglob("sandbox.wasm")) == []  # nothing built: only compiled
    assert len(list((tmp_path / "a").rglob("*.cwasm"))) == 1
    calls_a, calls_b = shipped["calls"], rebuilt["calls"]
    assert isinstance(calls_a, list)
    assert len(calls_a) > 500
    differ = [(a, b) for a, b in zip(calls_a, calls_b, strict=True) if a != b]
    assert differ == []


@pytest.mark.slow
def test_a_shipped_component_that_does_not_compile_is_replaced_by_a_cache_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A damaged file the stamp still vouches for (same size): the run builds its own
    into the user cache and says so, and the guest folder is left alone."""
    from wasmtime import Engine

    root = tmp_path / "guest"
    for name in guest.GUEST_FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes((build.guest_dir() / name).read_bytes())
    (root / guest.SHIPPED).write_bytes(b"\0asm" + b"\xff" * 1000)
    (root / guest.STAMP).write_text(guest._stamp(root, root / guest.SHIPPED))
    monkeypatch.setattr(build, "guest_dir", lambda: root)
    monkeypatch.setenv("PAU_USER_CACHE", str(tmp_path / "cache"))
    assert build.component_origin() == (root / guest.SHIPPED, "shipped")
    build.load_component(Engine(), "test")
    assert "does not compile" in capsys.readouterr().err
    assert build.component_origin() == (build.component_path(), "built")
    assert build.compiled_path("test").is_file()
    left = sorted(p.name for p in root.iterdir() if p.name != "__pycache__")  # componentize-py's
    assert left == sorted(
        [*{n.split("/")[0] for n in guest.GUEST_FILES}, guest.SHIPPED, guest.STAMP]
    )
