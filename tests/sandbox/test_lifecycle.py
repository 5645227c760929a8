"""Process exit, the build cache, and the cost of live sandboxes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
from pytest_pau.sandbox import Sandbox
boxes = [Sandbox("def test_func(x):\\n    return x * 2") for _ in range(3)]
for box in boxes:
    assert box.call_literal("(21,)").value == "42"
trapped = Sandbox("def test_func():\\n    while True: pass", fuel=10**8)
assert trapped.call_literal("()").error_type == "Timeout"
proc = Sandbox("def test_func():\\n    return 1", backend="process")
assert proc.call_literal("()").ok
print("done")
"""


@pytest.mark.slow
@pytest.mark.usefixtures("wasm_ready")
def test_process_exits_cleanly_with_live_sandboxes() -> None:
    # Sandboxes are left open on purpose: atexit must free them without a Rust panic.
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "done"
    assert "panic" not in proc.stderr.lower()
    assert proc.stderr.strip() == ""


FOREIGN_HANDLER_SCRIPT = """
import faulthandler
from pytest_pau.sandbox import Sandbox
with Sandbox("def test_func(x):\\n    return x") as box:  # the engine exists from here on
    assert box.call_literal("(1,)").ok
faulthandler.enable()  # a SIGSEGV handler installed after wasmtime's, as pytester runs do
deep = "import sys\\ndef test_func():\\n    sys.setrecursionlimit(10**7)\\n" \\
    "    def f(n):\\n        return f(n + 1)\\n    return f(0)"
nested = "def test_func():\\n    x = []\\n    for _ in range(10**5):\\n        x = [x]\\n    return x"
for code in (deep, nested):
    with Sandbox(code) as box:
        print(box.call_literal("()").error_type)
print("alive")
"""


@pytest.mark.slow
@pytest.mark.usefixtures("wasm_ready")
def test_guest_stack_overflow_is_contained_under_a_foreign_signal_handler() -> None:
    # Regression: with signal-based traps, faulthandler enabled after the engine turned a
    # guest stack overflow into a crash of the host process (seen as a dead xdist worker).
    proc = subprocess.run(
        [sys.executable, "-c", FOREIGN_HANDLER_SCRIPT],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.split()
    assert lines[-1] == "alive"
    assert lines[0] == "RecursionError"


def _rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


@pytest.mark.usefixtures("wasm_ready")
def test_ten_live_sandboxes_stay_under_200_mib() -> None:
    from pytest_pau.sandbox import Sandbox

    warm = Sandbox("def test_func():\n    return 0")
    warm.call_literal("()")
    before = _rss_mib()
    boxes = [Sandbox("def test_func(n):\n    return list(range(n))") for _ in range(10)]
    try:
        for box in boxes:
            assert box.call_literal("(1000,)").ok
        assert _rss_mib() - before < 200
    finally:
        for box in [warm, *boxes]:
            box.close()


@pytest.mark.slow
@pytest.mark.usefixtures("wasm_ready")
def test_concurrent_first_use_shares_one_compiled_cache(tmp_path: Path) -> None:
    """Two processes compile into an empty cache at once: one artefact, both work."""
    from pytest_pau.sandbox.build import cache_dir, component_origin

    cache = tmp_path / "cache"
    origin = component_origin()
    assert origin is not None
    relative = cache_dir().relative_to(
        Path(os.environ.get("PAU_USER_CACHE") or cache_dir().parents[2])
    )
    (cache / relative).mkdir(parents=True)
    if origin[1] == "built":
        # Seed the new cache with the built component so only compile+serialize races
        # (componentize-py would add ~10 s per process without testing anything more).
        (cache / relative / "sandbox.wasm").write_bytes(origin[0].read_bytes())
    env = dict(os.environ, PAU_USER_CACHE=str(cache))
    code = "from pytest_pau.sandbox import Sandbox; print(Sandbox('def test_func():\\n    return 5').call_literal('()').value)"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [o[0].strip() for o in outs] == ["5", "5"], outs
    compiled = list((cache / relative).glob("*.cwasm"))
    assert len(compiled) == 1
    assert not list((cache / relative).glob(".*.tmp"))


def test_every_guest_file_is_in_the_source_hash() -> None:
    """A guest module left out of ``GUEST_FILES`` would not trigger a rebuild when it changes."""
    from pytest_pau.sandbox.build import GUEST_FILES, guest_dir

    root = guest_dir()
    on_disk = {p.relative_to(root).as_posix() for p in root.glob("*.py")}
    on_disk |= {p.relative_to(root).as_posix() for p in root.glob("wit/*.wit")}
    assert on_disk == set(GUEST_FILES)
