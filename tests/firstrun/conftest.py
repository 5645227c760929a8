"""A tiny stand-in for an embedded model's weights, shared by the first-run tests."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest

from pytest_pau.llm.local import weights

BYTES = b"GGUF" + bytes(range(256)) * 4
"""The stand-in's whole file: 1 KiB."""


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> weights.LocalModelSpec:
    """``local-small`` as a 1 KiB file: same lookup and checks, no 491 MB download; no
    carrier packages, no Hugging Face cache or hub, an empty user cache."""
    spec = dataclasses.replace(
        weights.SPECS["local-small"],
        size=len(BYTES),
        sha256=hashlib.sha256(BYTES).hexdigest(),
        carrier_dist="no-such-carrier-part",
    )
    monkeypatch.setitem(weights.SPECS, "local-small", spec)
    monkeypatch.setattr(weights, "_resolved", {})
    monkeypatch.setattr(weights, "_from_hf_cache", lambda spec: None)
    monkeypatch.setattr(weights, "_hub_reachable", lambda: False)
    monkeypatch.delenv("PAU_LOCAL_MODEL_PATH", raising=False)
    monkeypatch.setenv("PAU_USER_CACHE", str(tmp_path / "user-cache"))
    return spec
