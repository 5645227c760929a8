"""``python -m pytest_pau.llm.local.server``: llama-cpp-python's server, started as the
embedded model is (the README's "llama.cpp server" line), answers a real request."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

from pytest_pau.llm.local.server import server_argv

needs_server = pytest.mark.skipif(
    importlib.util.find_spec("fastapi") is None or importlib.util.find_spec("uvicorn") is None,
    reason="llama-cpp-python's server needs the server extra",
)


def test_the_readme_starts_the_server_this_way() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "python -m pytest_pau.llm.local.server --model local-small --port 8000 &" in readme
    assert "pytest --pau-model=openai/local-small --pau-api-base=http://localhost:8000/v1" in readme


def test_an_embedded_models_name_becomes_its_weights_and_alias(monkeypatch) -> None:
    import pytest_pau.llm.local.weights as weights

    monkeypatch.setattr(weights, "resolve_weights", lambda name: f"/w/{name}.gguf")
    assert server_argv(["--model", "local-small", "--port", "8000"]) == [
        "--model",
        "/w/local-small.gguf",
        "--port",
        "8000",
        "--model_alias",
        "local-small",
    ]
    assert server_argv(["--model=my.gguf"]) == ["--model=my.gguf"]


@needs_server
@pytest.mark.slow
@pytest.mark.local_model
def test_the_server_answers_as_the_readme_says() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PAU_LOCAL_EXTRA_BUFFERS": "0"}
    command = [sys.executable, "-m", "pytest_pau.llm.local.server", "--model", "local-small"]
    command += ["--port", str(port), "--n_ctx", "2048", "--verbose", "False"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                models = httpx.get(f"{base}/models", timeout=5).json()
                break
            except httpx.HTTPError:
                assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.5)
        assert models["data"][0]["id"] == "local-small"
        answer = httpx.post(
            f"{base}/chat/completions",
            json={
                "model": "local-small",
                "messages": [{"role": "user", "content": "Say OK."}],
                "max_tokens": 4,
                "temperature": 0,
            },
            timeout=120,
        ).json()
        assert answer["choices"][0]["message"]["content"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
