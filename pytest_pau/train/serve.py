"""A trained policy as a model the benchmark can evaluate.

Two routes, both real:

- in-process: :class:`PolicyClient` has the llm client's ``complete(messages, ...)``, so the
  benchmark's own :class:`~pytest_pau.agent.InteractiveAgent` and
  :class:`~pytest_pau.scoring.Evaluator` run it (``--eval-every`` does this);
- out of process: ``pau train --serve DIR`` puts the adapter behind an OpenAI-compatible
  chat endpoint on 127.0.0.1 and prints the pytest line to evaluate it::

      pau train --serve runs/aac/adapter &     # prints the model name and the api base
      pytest --pau-model=openai/pau-policy-1a2b3c4d --pau-api-base=http://127.0.0.1:PORT/v1

The served name carries the first 8 hex digits of the adapter's content hash: the model
cache keys answers by model name, so a new adapter can never be answered from an old one's
entries (and the same adapter served again shares them).

The server is the project's scripted OpenAI-compatible server with a callable that runs
the policy, so the plugin reaches it through its usual litellm path, cache included.
"""

from __future__ import annotations

import hashlib
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.models import Completion

if TYPE_CHECKING:
    from pytest_pau.train.policy import Policy

SERVED_PREFIX = "pau-policy"


def adapter_digest(adapter: str | Path) -> str:
    """SHA-256 over an adapter directory's files (names and bytes, in sorted order)."""
    root = Path(adapter)
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        with path.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                digest.update(chunk)
        digest.update(b"\0")
    return digest.hexdigest()


def served_model_name(adapter: str | Path) -> str:
    """``openai/pau-policy-<8 hex of the adapter's content hash>``."""
    return f"openai/{SERVED_PREFIX}-{adapter_digest(adapter)[:8]}"


class PolicyClient:
    """The llm client interface (``complete``) over a local :class:`Policy`.

    Args:
        policy: The policy (its adapter applied).
        name: The model name recorded in completions.
    """

    def __init__(self, policy: Policy, *, name: str = "pau-policy") -> None:
        self.policy = policy
        self.name = name
        self._lock = threading.Lock()  # one generation at a time: torch on 2 cores gains nothing

    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: int = 0,
        **_: Any,
    ) -> Completion:
        """Generate one reply (greedy at temperature 0, as the benchmark asks)."""
        start = time.perf_counter()
        with self._lock:
            prompt = self.policy.encode_chat(messages)
            out = self.policy.generate(
                [prompt], max_new_tokens=max_tokens, temperature=temperature, seed=seed
            )[0]
        return Completion(
            text=self.policy.decode(out),
            model=self.name,
            prompt_tokens=len(prompt),
            completion_tokens=len(out),
            latency_s=time.perf_counter() - start,
        )


def serve(adapter: str, *, max_tokens: int = 256) -> Any:
    """Start an OpenAI-compatible server for the trained policy in ``adapter``.

    Returns:
        The started server (``.api_base``, ``.model``, ``.close()``).
    """
    from pytest_pau.llm.scripted import ScriptedLLM
    from pytest_pau.train.policy import Policy

    client = PolicyClient(Policy.load(adapter, trainable=False))

    def reply(messages: list[dict[str, Any]]) -> str:
        msgs = [
            {"role": str(m.get("role")), "content": str(m.get("content") or "")} for m in messages
        ]
        return client.complete(msgs, max_tokens=max_tokens).text

    name = served_model_name(adapter)
    # Binds a free port on 127.0.0.1; /v1/models lists the same content-hashed name.
    server = ScriptedLLM(reply, model=name)
    return server.start()
