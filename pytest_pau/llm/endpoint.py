"""Which model answers behind an ``api_base``: what the cache key holds besides the alias.

A self-hosted model is named by whatever alias its server uses (``openai/my-model``), so
the alias alone cannot tell two servers apart: two quantisations behind one name, a new
adapter served under the old one, another model on yesterday's port. For a model reached
through an ``api_base`` the cache key therefore also holds the server's identity, asked
once per process and endpoint (``GET <api_base>/models``, which costs nothing):

* the fields of the server's entry for the model that tell models apart (:data:`IDENTIFYING`:
  a weights path such as vLLM's ``root`` or llama.cpp's listed file, a digest, llama.cpp's
  ``meta``), when one is there with a value that says more than the alias. Then the
  address is normalised without its port, so the same server restarted on another port
  shares its entries, and a different model behind the same alias never does;
* else the full normalised address (scheme, host, port, path), and a warning: nothing the
  server says identifies the model, so its answers are cached by alias and address only.

Any other field never identifies, whatever it holds: ``owned_by``, ``permissions`` (empty
in llama-cpp-python's server, random ids per request in vLLM's), ``object``, ``created``
are the same for every model a server serves, or change without the model changing. When
in doubt, the key keeps the port and the summary says so.

Hosted providers (no ``api_base``) are keyed by the model string alone, as before: the
provider names the model.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

#: Fields of a ``/models`` entry whose value tells one model from another: a weights path
#: (the listed ``id`` when it is not the alias, as llama.cpp's server lists its file; vLLM's
#: ``root``; ``path``), a digest, llama.cpp's ``meta`` (parameters, size, vocabulary).
IDENTIFYING = ("id", "root", "path", "model_path", "digest", "sha256", "meta")
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})
PROBE_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class EndpointIdentity:
    """What the cache key holds for a model served at an ``api_base``."""

    address: str
    """The normalised base URL (without the port when ``served`` identifies the model)."""
    served: str | None
    """The server's entry for the model as canonical JSON (volatile fields dropped), or None."""
    identifying: bool
    """Whether ``served`` tells the model apart from any other served under the same alias."""

    def key(self) -> dict[str, str | None]:
        """The part of the cache key this endpoint adds."""
        return {"address": self.address, "served": self.served}

    def warning(self, model: str, api_base: str | None = None) -> str | None:
        """The note for the summary when nothing identifies the model behind the alias.

        ``api_base`` is the address as the user gave it (``127.0.0.1`` stays so); by default
        the normalised one.
        """
        if self.identifying:
            return None
        return alias_cache_note([(model, api_base or self.address)])


def alias_cache_note(served: list[tuple[str, str]]) -> str:
    """One note for every ``(model, api_base)`` whose server does not identify the model."""
    where = " and ".join(f"{model} at {base.rstrip('/')}" for model, base in served)
    if len(served) == 1:
        return (
            f"answers of {where} are cached by alias and address only (the server's /models "
            "entry says nothing more about the model); after changing the model behind it, "
            "use --pau-no-cache or serve it under a new name"
        )
    return (
        f"answers of {where} are cached by alias and address only (the servers' /models "
        "entries say nothing more about the models); after changing a model behind one, "
        "use --pau-no-cache or serve it under a new name"
    )


def normalise(api_base: str, *, keep_port: bool) -> str:
    """``HTTP://LocalHost:8000/v1/`` -> ``http://localhost:8000/v1`` (loopback names unified)."""
    parts = urlsplit(api_base.strip())
    host = (parts.hostname or "").lower()
    if host in _LOOPBACK:
        host = "localhost"
    port = f":{parts.port}" if keep_port and parts.port is not None else ""
    path = parts.path.rstrip("/")
    return f"{parts.scheme.lower() or 'http'}://{host}{port}{path}"


def _alias_name(model: str) -> str:
    """``openai/my-model`` -> ``my-model``: the name the request sends to the server."""
    return model.split("/", 1)[1] if "/" in model else model


def _entry_for(listing: Any, name: str) -> dict[str, Any] | None:
    data = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(data, list):
        return None
    entries = [e for e in data if isinstance(e, dict)]
    for entry in entries:
        if entry.get("id") == name:
            return entry
    return entries[0] if len(entries) == 1 else None


def probe(api_base: str, model: str, api_key: str | None = None) -> EndpointIdentity:
    """Ask the server at ``api_base`` what it serves as ``model``.

    Never raises: a server without a ``/models`` route (or one that is down, which the
    first real call will report) gets the non-identifying identity.
    """
    import httpx

    name = _alias_name(model)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    base = api_base.rstrip("/")
    urls = [f"{base}/models"] + ([] if base.endswith("/v1") else [f"{base}/v1/models"])
    entry = None
    for url in urls:
        try:
            response = httpx.get(url, headers=headers, timeout=PROBE_TIMEOUT_S)
            if response.status_code == 200:
                entry = _entry_for(response.json(), name)
        except (httpx.HTTPError, ValueError):
            entry = None
        if entry is not None:
            break
    if entry is None:
        return EndpointIdentity(normalise(api_base, keep_port=True), None, False)
    kept = identifying_fields(entry, name)
    if not kept:
        return EndpointIdentity(normalise(api_base, keep_port=True), None, False)
    served = json.dumps(kept, sort_keys=True, ensure_ascii=False, default=str)
    return EndpointIdentity(normalise(api_base, keep_port=False), served, True)


def identifying_fields(entry: dict[str, Any], name: str) -> dict[str, Any]:
    """The fields of a ``/models`` entry that tell the model apart from another one.

    Only :data:`IDENTIFYING` fields count, and only with a value: empty ones (``None``,
    ``""``, ``[]``, ``{}``) never do, nor a path or id that is just the alias again.

    >>> identifying_fields({"id": "m", "owned_by": "me", "permissions": []}, "m")
    {}
    >>> identifying_fields({"id": "m", "root": "/w/qwen-7b.gguf", "meta": {}}, "m")
    {'root': '/w/qwen-7b.gguf'}
    """
    kept = {}
    for field in IDENTIFYING:
        value = entry.get(field)
        if value is None or value in ("", [], {}) or (isinstance(value, str) and value == name):
            continue
        kept[field] = value
    return kept


_known: dict[tuple[str, str], EndpointIdentity] = {}
_known_lock = threading.Lock()


def identity(api_base: str, model: str, api_key: str | None = None) -> EndpointIdentity:
    """:func:`probe`, once per process and ``(api_base, model)``."""
    key = (api_base, model)
    with _known_lock:
        if key in _known:
            return _known[key]
    found = probe(api_base, model, api_key)
    with _known_lock:
        return _known.setdefault(key, found)


def forget() -> None:
    """Forget every probed identity (tests; a long-lived process whose servers changed)."""
    with _known_lock:
        _known.clear()
