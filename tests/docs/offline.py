"""Running the ``pytest`` commands the pages show, offline and in seconds.

A command runs as the page writes it, in a fresh folder, with what reaches outside this
machine redirected and the run kept small:

* OpenAI's hosted models (``gpt-5-mini``, ``gpt-5``) reach a :class:`ScriptedLLM` through
  the real litellm path, by ``OPENAI_BASE_URL`` (litellm's own setting for OpenAI's
  address) and a placeholder key; the pages' served address
  (``http://localhost:8000/v1``) is replaced by the scripted server's.
* Providers that speak another protocol (Anthropic's messages API, Ollama's) reach a
  :class:`Recorder` through ``ANTHROPIC_API_BASE`` / ``OLLAMA_API_BASE``: it notes what
  arrives and refuses it, so a test sees that the model string routes to that provider
  (and the item ends as an error, E, never as a score).
* A judge or coder the command leaves at its default (the embedded ``local`` model, which
  needs the ``local`` extra's 1.1 GB weights) is the scripted server; the embedded models'
  own runs are ``tests/plugin/test_local_e2e.py``.
* ``-n N`` is dropped (that xdist gives the serial run's results is
  ``tests/plugin/test_xdist.py``), and a command that selects no instance by ``-k`` gets
  ``--pau-limit`` so that a 240-instance run takes two.
"""

from __future__ import annotations

import json
import shlex
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from pytest_pau.testing import ScriptedLLM

#: The address the pages give an OpenAI-compatible server of your own.
SERVED = "http://localhost:8000/v1"


class Recorder:
    """An HTTP server that notes each request (method, path, body) and answers 404."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, Any]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _note(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except json.JSONDecodeError:
                    body = raw
                owner.requests.append((self.command, self.path, body))
                data = json.dumps({"error": {"message": "not served here"}}).encode()
                self.send_response(404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _note

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> Recorder:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def offline(monkeypatch: pytest.MonkeyPatch, llm: ScriptedLLM) -> Iterator[Recorder]:
    """The environment of :func:`pytest_args`: providers redirected to ``llm`` or a recorder."""
    with Recorder() as recorder:
        for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
            monkeypatch.setenv(name, llm.api_base)
        monkeypatch.setenv("OPENAI_API_KEY", llm.api_key)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-placeholder")
        monkeypatch.setenv("ANTHROPIC_API_BASE", recorder.url)
        monkeypatch.setenv("OLLAMA_API_BASE", recorder.url)
        yield recorder


def pytest_args(command: str, llm: ScriptedLLM, *, limit: int = 2) -> list[str]:
    """The arguments of a page's ``pytest ...`` command, made to run offline (module doc)."""
    argv = shlex.split(command)
    assert argv[0] == "pytest", command
    args: list[str] = []
    rest = iter(argv[1:])
    for arg in rest:
        if arg == "-n":
            next(rest)
            continue
        if arg.startswith("-n") and arg[2:].isdigit():
            continue
        args.append(arg.replace(SERVED, llm.api_base))
    for role in ("judge", "coder"):
        if not any(a.startswith(f"--pau-{role}-model") for a in args):
            args += [f"--pau-{role}-model={llm.model}", f"--pau-{role}-api-base={llm.api_base}"]
    if "-k" not in args and not any(a.startswith("--pau-limit") for a in args):
        args.append(f"--pau-limit={limit}")
    return args
