"""``python -m pytest_pau.llm.local.server``: llama-cpp-python's server, started as the
embedded model is (docs/providers.md, "llama-cpp-python's server"), answers a real request."""

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
from pytest_pau.testing import MARKERS, ScriptedLLM

needs_server = pytest.mark.skipif(
    importlib.util.find_spec("fastapi") is None or importlib.util.find_spec("uvicorn") is None,
    reason="llama-cpp-python's server needs the server extra",
)


def test_the_providers_page_starts_the_server_this_way() -> None:
    from tests.docs.pages import page

    shown = page("providers.md")
    assert "python -m pytest_pau.llm.local.server --model local-small --port 8000 &" in shown
    assert "pytest --pau-model=openai/local-small --pau-api-base=http://localhost:8000/v1" in shown


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
def test_the_server_answers_as_the_providers_page_says(tmp_path) -> None:
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
            except Exception:  # not listening yet (httpx, or httpcore's own under load)
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
        # The page's pytest line against it, one item and one iteration; the judge and the
        # coder are scripted (the page leaves them at the embedded 1.5B, not installed here).
        (line,) = [c for c in commands_of_page() if c.startswith("pytest --pau-model=openai/local")]
        args = line.split()[1:]
        args = [a.replace("localhost:8000", f"127.0.0.1:{port}") for a in args]
        with ScriptedLLM(SCORERS) as scorers:
            run = subprocess.run(
                [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
                + ["-m", "smoke", "--pau-limit=1", "--pau-max-iterations=1", "--pau-no-cache"]
                + [f"--pau-{role}-model={scorers.model}" for role in ("judge", "coder")]
                + [f"--pau-{role}-api-base={scorers.api_base}" for role in ("judge", "coder")],
                env={**env, "OPENAI_API_KEY": "sk-local"},
                capture_output=True,
                text=True,
                timeout=600,
                cwd=tmp_path,
            )
        out = run.stdout + run.stderr
        assert "PAU summary" in out, out[-3000:]
        assert "items 1:" in out, out[-3000:]
        assert "error" not in out.split("PAU summary", 1)[1].split("\n", 2)[1], out[-3000:]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


SCORERS = [
    (MARKERS["judge"], "Close enough. Rating: 3"),
    (MARKERS["judge_retry"], "Rating: 3"),
    (MARKERS["coder"], "```python\ndef test_func(*args):\n    return args[0]\n```"),
    (MARKERS["classify"], "insufficient_exploration"),
]


def commands_of_page() -> list[str]:
    from tests.docs.pages import commands, fenced, page

    return [c for block in fenced(page("providers.md"), "bash") for c in commands(block)]
