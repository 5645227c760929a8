"""The judge: rates a predicted description against the gold one, 1 to 5."""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

from pytest_pau.llm.caps import DEFAULT_CAPS
from pytest_pau.models import JudgeResult, Usage
from pytest_pau.prompting import explanation_of, parse_rating, render

if TYPE_CHECKING:
    from pytest_pau.llm.protocol import SupportsComplete
    from pytest_pau.models import Completion, Instance

#: Sampling temperature when ``samples > 1``: at temperature 0 every sample would be the
#: same and the spread would hide the judge's real variance.
SAMPLE_TEMPERATURE = 0.7


def judge_messages(gold: str, prediction: str) -> list[dict[str, str]]:
    """The judge's prompt for one pair of descriptions."""
    return [
        {"role": "system", "content": render("judge_system")},
        {
            "role": "user",
            "content": render("judge", gold=gold, prediction=prediction or "(empty)"),
        },
    ]


class Judge:
    """Scores predictions with an LLM judge.

    An answer without a parseable rating is retried once with a format reminder; if the
    retry fails too, that sample's rating is None: counted in ``unparseable`` and never
    turned into a number. With ``samples=N`` the judge answers N times (temperature
    :data:`SAMPLE_TEMPERATURE`, seeds ``seed..seed+N-1``) and the result carries the
    mean and the spread.

    Args:
        client: The judge model's client (``LLMClient`` or anything with ``.complete``).
        samples: Ratings to take (``--pau-judge-samples``).
        use_logprobs: Also compute the probability-weighted rating where the provider
            returns logprobs (finer signal from small local judges).
        seed: Base seed of the judge calls.
        max_tokens: Cap on each judge answer.
    """

    def __init__(
        self,
        client: SupportsComplete,
        *,
        samples: int = 1,
        use_logprobs: bool = False,
        seed: int = 0,
        max_tokens: int = DEFAULT_CAPS.judge,
    ) -> None:
        if samples < 1:
            raise ValueError(f"Judge(samples=...): expected at least 1, got {samples!r}")
        self.client = client
        self.samples = samples
        self.use_logprobs = use_logprobs
        self.seed = seed
        self.max_tokens = max_tokens

    def _complete(self, messages: list[dict[str, str]], seed: int) -> Completion:
        return self.client.complete(
            messages,
            temperature=0.0 if self.samples == 1 else SAMPLE_TEMPERATURE,
            max_tokens=self.max_tokens,
            seed=seed,
            logprobs=5 if self.use_logprobs else None,
        )

    def score(self, instance: Instance, prediction: str) -> JudgeResult:
        """Rate ``prediction`` against ``instance.description``."""
        usage = Usage()
        ratings: list[int | None] = []
        weighted: list[float] = []
        explanation = ""
        base = judge_messages(instance.description, prediction)
        for i in range(self.samples):
            completion = self._complete(base, self.seed + i)
            usage.add(completion.usage())
            rating = parse_rating(completion.text)
            if rating is None:
                retry = [
                    *base,
                    {"role": "assistant", "content": completion.text},
                    {"role": "user", "content": render("judge_retry")},
                ]
                explanation = explanation or explanation_of(completion.text)
                completion = self._complete(retry, self.seed + i)
                usage.add(completion.usage())
                rating = parse_rating(completion.text)
            elif not explanation:
                explanation = explanation_of(completion.text)
            ratings.append(rating)
            if self.use_logprobs and rating is not None:
                value = _weighted(completion)
                if value is not None:
                    weighted.append(value)
        parsed = [r for r in ratings if r is not None]
        return JudgeResult(
            score=statistics.fmean(parsed) if parsed else None,
            ratings=ratings,
            explanation=explanation,
            spread=statistics.pstdev(parsed) if len(parsed) > 1 else None,
            logprob_score=statistics.fmean(weighted) if weighted else None,
            unparseable=len(ratings) - len(parsed),
            usage=usage,
        )


def _weighted(completion: Completion) -> float | None:
    if not completion.logprobs:
        return None
    try:
        from pytest_pau.llm import weighted_rating
    except ImportError:  # the llm stage predates the helper: no weighted score
        return None
    return weighted_rating(completion)
