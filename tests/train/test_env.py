"""PauEnv stepped through scripted episodes: the real sandbox, the scripted server as critic."""

from __future__ import annotations

import json

import pytest

from pytest_pau.errors import ConfigError
from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.models import Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.scoring import Coder
from pytest_pau.testing import ScriptedLLM
from pytest_pau.train.critic import CodeMatchCritic, Critic, parse_critic_rating
from pytest_pau.train.env import PauEnv

PLAN = "Try a negative number to see the sign handling."
GOOD = "CONCLUDE: YES\nSUMMARY: Returns the integer argument doubled."
UNSURE = "CONCLUDE: NO\nSUMMARY: Maybe it adds one. Test more."


def play(env: PauEnv, replies: list[str]) -> list[float]:
    messages = env.reset()
    totals = []
    for reply in replies:
        assert messages
        out = env.step(reply)
        totals.append(out.reward.total)
        messages = out.messages or []
        if out.done:
            break
    return totals


def critic_prompts(server: ScriptedLLM) -> list[str]:
    return [body["messages"][-1]["content"] for body in server.log]


def test_aac_episode_rewards_step_by_step(double: Instance, critic_client: LLMClient) -> None:
    env = PauEnv(double, critic=Critic(critic_client), variant="aac", max_iterations=3)
    try:
        totals = play(env, [PLAN, "INPUT: (-3,)", UNSURE, PLAN, "INPUT: ('a',)", GOOD])
    finally:
        env.close()
    assert totals == pytest.approx(
        [
            (3 / 9 - 1) / 3,  # plan rated 3: a cost, spread over the 3 iterations
            0.025,  # clean execution: lambda_H / (2 T_max)
            2 * (1 / 9),  # hypothesis rated 1, from 0: lambda_H x the change; going on: no bonus
            (3 / 9 - 1) / 3,
            -0.5,  # the method raised TypeError
            2 * (8 / 9 - 1 / 9) + 2.0,  # rated 8 now; stopping at or above 0.7: +1 x lambda_H
        ]
    )
    # the hypothesis terms sum to lambda_H x the final rating
    assert sum(r.components["critic"] for r in env.rewards if r.kind == "reflect") == (
        pytest.approx(2 * 8 / 9)
    )


def test_paper_episode_rewards_step_by_step(
    double: Instance, critic_client: LLMClient, critic_server: ScriptedLLM
) -> None:
    env = PauEnv(double, critic=Critic(critic_client), variant="paper", max_iterations=3)
    try:
        totals = play(env, [PLAN, "INPUT: (-3,)", UNSURE, PLAN, "INPUT: ('a',)", GOOD])
    finally:
        env.close()
    assert totals == pytest.approx(
        [
            3 / 9,  # plan rated 3
            0.025,  # clean execution: lambda_H / (2 T_max)
            1 / 9 + 2.0,  # wrong hypothesis rated 1; going on below 0.3: +1 x lambda_H
            3 / 9,
            -0.5,  # the method raised TypeError
            8 / 9 + 2.0,  # right hypothesis rated 8, stopping above 0.7: +1 x lambda_H
        ]
    )
    assert env.done
    assert env.state.concluded
    assert not env.turn_limit
    assert env.prediction == "Returns the integer argument doubled."
    assert [o[0] for o in env.observed] == ["(-3,)", "('a',)"]
    assert env.rewards[4].components["runtime_error"] == -0.5
    assert env.total_reward == pytest.approx(sum(totals))
    # the critic is privileged: it saw the gold source and description
    prompts = critic_prompts(critic_server)
    assert len(prompts) == 4
    assert all("return arg0 * 2" in p and double.description in p for p in prompts)


def test_prompts_are_the_benchmarks(double: Instance, critic_client: LLMClient) -> None:
    import re

    env = PauEnv(double, critic=Critic(critic_client), max_iterations=2)
    assert re.search(MARKERS["reason"], env.reset()[-1]["content"])
    out = env.step(PLAN)
    assert out.messages is not None
    assert re.search(MARKERS["act"], out.messages[-1]["content"])
    out = env.step("INPUT: (7,)")
    assert out.info["result"] == "14"
    assert out.messages is not None
    assert re.search(MARKERS["reflect"], out.messages[-1]["content"])
    env.close()


def test_parse_failure_then_turn_limit(double: Instance, critic_client: LLMClient) -> None:
    env = PauEnv(double, critic=Critic(critic_client), max_iterations=1)
    totals = play(env, [PLAN, "I would rather not say."])
    env.close()
    # plan rated 3: (3/9 - 1) / 1; act: parse failure -0.5; the format failure used up the
    # only iteration: -1
    assert totals == pytest.approx([3 / 9 - 1, -1.5])
    assert env.turn_limit
    assert env.done
    assert env.rewards[-1].components["parse_failure"] == -0.5
    assert env.rewards[-1].components["turn_limit"] == -1.0
    with pytest.raises(RuntimeError, match="after the episode ended"):
        env.step("more")


def test_turn_limit_after_reflection(double: Instance, critic_client: LLMClient) -> None:
    env = PauEnv(double, critic=Critic(critic_client), max_iterations=1)
    totals = play(env, [PLAN, "INPUT: (1,)", UNSURE])
    env.close()
    # lambda_H x (1/9 - 0), no bonus for going on, -1 at the limit
    assert totals[-1] == pytest.approx(2 / 9 - 1.0)


def test_sym_info_critic_sees_no_gold(
    double: Instance, critic_client: LLMClient, critic_server: ScriptedLLM
) -> None:
    env = PauEnv(
        double, critic=Critic(critic_client, privileged=False), variant="sym-info", max_iterations=2
    )
    totals = play(env, [PLAN, "INPUT: (2,)", GOOD])
    env.close()
    # the aac schedule...
    assert totals == pytest.approx([(3 / 9 - 1) / 2, 0.025, 2 * 8 / 9 + 2.0])
    prompts = critic_prompts(critic_server)
    assert prompts
    assert all("arg0 * 2" not in p and double.description not in p for p in prompts)
    assert all("You do not know the function either" in p for p in prompts)  # ...other critic


def test_final_rewards_only_the_end(
    double: Instance, critic_client: LLMClient, critic_server: ScriptedLLM
) -> None:
    env = PauEnv(double, critic=Critic(critic_client), variant="final", max_iterations=3)
    totals = play(env, [PLAN, "INPUT: ('x',)", UNSURE, PLAN, "INPUT: (5,)", GOOD])
    env.close()
    assert totals == pytest.approx([0, 0, 0, 0, 0, 8 / 9])
    assert env.rewards[-1].components["final"] == pytest.approx(8 / 9)
    assert critic_server.requests == 1  # one rating of the final description, none per step


def test_final_with_turn_limit(double: Instance, critic_client: LLMClient) -> None:
    env = PauEnv(double, critic=Critic(critic_client), variant="final", max_iterations=1)
    totals = play(env, [PLAN, "INPUT: (5,)", UNSURE])
    env.close()
    assert totals == pytest.approx([0, 0, 1 / 9 - 1.0])


def test_code_match_variant(
    double: Instance, critic_client: LLMClient, critic_server: ScriptedLLM
) -> None:
    critic = CodeMatchCritic(Coder(critic_client))
    env = PauEnv(double, critic=critic, variant="code-match", max_iterations=2)
    totals = play(env, [PLAN, "INPUT: (3,)", GOOD])
    env.close()
    # the scripted coder's `arg0 * 2` matches 0 and -4 but not the TypeError on 'a': 2/3;
    # lambda_H x (2/3 - 0), and stopping below 0.7 costs -1 x lambda_H; plans: no signal, no cost
    assert totals == pytest.approx([0.0, 0.025, 2 * 2 / 3 - 2.0])
    assert critic_server.requests == 1  # the coder, once; plans are not rated
    coder_prompt = critic_prompts(critic_server)[0]
    assert "test_func(3) -> 6" in coder_prompt  # the coder saw the episode's own call


def test_unparseable_critic_counts_zero(double: Instance) -> None:
    with ScriptedLLM([(r".*", "I refuse to grade.")]) as server:
        client = LLMClient(
            server.model, api_base=server.api_base, retry=RetryPolicy(max_attempts=1)
        )
        critic = Critic(client)
        env = PauEnv(double, critic=critic, max_iterations=1)
        totals = play(env, [PLAN])
        env.close()
    assert totals == [-1.0]  # rating 0: the plan's whole cost (never a way out)
    assert env.rewards[0].critic_unparseable
    assert env.critic_unparseable == 1
    assert critic.unparseable == 1


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Rating: 7", 7),
        ("**Rating:** 0", 0),
        ("rating: 4\nRating: 9", 9),
        ("Rating: 10", None),
        ("Rating: 7.", 7),
        ("Rating: 6.5", None),
        ("none", None),
    ],
)
def test_parse_critic_rating(reply: str, expected: int | None) -> None:
    assert parse_critic_rating(reply) == expected


def test_bad_variant_is_a_config_error(double: Instance, critic_client: LLMClient) -> None:
    with pytest.raises(
        ConfigError,
        match="--reward: expected one of aac, paper, final, sym-info, code-match, got 'dpo'",
    ):
        PauEnv(double, critic=Critic(critic_client), variant="dpo")


def test_aac_refuses_an_iteration_limit_that_stalling_could_farm(
    double: Instance, critic_client: LLMClient
) -> None:
    with pytest.raises(ConfigError, match="--pau-max-iterations=97: with --reward aac"):
        PauEnv(double, critic=Critic(critic_client), max_iterations=97)
    PauEnv(double, critic=Critic(critic_client), variant="paper", max_iterations=97).close()


def test_step_info_is_json_ready(double: Instance, critic_client: LLMClient) -> None:
    env = PauEnv(double, critic=Critic(critic_client), max_iterations=1)
    env.step(PLAN)
    out = env.step("INPUT: (4,)")
    env.close()
    assert json.loads(json.dumps(out.info)) == out.info
