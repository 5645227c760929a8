"""The cache can never hand one model's answers to another (real HTTP, real cache files).

A self-hosted model is named by its server's alias, so for a model behind an ``api_base``
the key also holds what the server says it serves (``GET /models``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pytest_pau.llm import make_client
from pytest_pau.llm.cache import cache_key
from pytest_pau.llm.cache.cache_file import FILENAME
from pytest_pau.llm.endpoint import forget, identity
from pytest_pau.testing import ScriptedLLM

ASK = [{"role": "user", "content": "Describe the method."}]
ALIAS = "openai/pau-policy"


def ask(llm: ScriptedLLM, cache: Path) -> str:
    return make_client(ALIAS, api_base=llm.api_base, cache_dir=cache).complete(ASK).text


def test_two_servers_behind_one_alias_give_their_own_answers(tmp_path: Path) -> None:
    forget()
    with (
        ScriptedLLM(default="old policy", model=ALIAS, served_model="pau-policy-aaaa") as old,
        ScriptedLLM(default="new policy", model=ALIAS, served_model="pau-policy-bbbb") as new,
    ):
        assert ask(old, tmp_path) == "old policy"
        assert ask(new, tmp_path) == "new policy"  # not the old server's cached answer
        assert (old.requests, new.requests) == (1, 1)


def test_the_same_server_on_another_port_shares_its_entries(tmp_path: Path) -> None:
    forget()
    served = {"model": ALIAS, "served_model": "qwen-7b-awq", "system_fingerprint": "fp_1"}
    with ScriptedLLM(default="answer", **served) as first:
        assert ask(first, tmp_path) == "answer"
        first_base = first.api_base
    with ScriptedLLM(default="a different answer", **served) as restarted:
        assert restarted.api_base != first_base
        assert ask(restarted, tmp_path) == "answer"  # the same identity: served from the cache
        assert restarted.requests == 0


def test_a_server_that_says_nothing_is_keyed_by_its_address_and_warned_about(
    tmp_path: Path,
) -> None:
    forget()
    with ScriptedLLM(default="one", model=ALIAS) as a, ScriptedLLM(default="two", model=ALIAS) as b:
        assert (ask(a, tmp_path), ask(b, tmp_path)) == ("one", "two")
        found = identity(a.api_base, ALIAS)
        assert not found.identifying
        assert f":{a.port}" in found.address
        warning = found.warning(ALIAS) or ""
        assert "cached by alias and address only" in warning
        assert "--pau-no-cache" in warning


def test_hosted_models_keep_their_keys(tmp_path: Path) -> None:
    params = {"temperature": 0.0, "max_tokens": 8, "seed": 0, "stop": None, "logprobs": None}
    assert cache_key("gpt-5-mini", ASK, params) == cache_key("gpt-5-mini", ASK, params, server=None)
    assert cache_key("m", ASK, params, server={"address": "x", "served": None}) != cache_key(
        "m", ASK, params
    )


def test_answers_stored_by_another_version_are_flagged(tmp_path: Path) -> None:
    forget()
    with ScriptedLLM(default="answer", model=ALIAS, served_model="p-1") as llm:
        ask(llm, tmp_path)
        with sqlite3.connect(tmp_path / FILENAME) as db:
            db.execute("UPDATE responses SET plugin_version = '0.0.1'")
        again = make_client(ALIAS, api_base=llm.api_base, cache_dir=tmp_path).complete(ASK)
    assert again.cached
    assert again.cached_other_version
    assert again.usage().cache_hits_other_version == 1


# -- issue 31: only fields that tell models apart identify one ---------------------------

#: What llama-cpp-python's own server lists (`python -m llama_cpp.server`).
LLAMA_CPP_PYTHON = {"owned_by": "me", "permissions": []}


def test_constant_or_empty_fields_never_identify_a_model(tmp_path: Path) -> None:
    forget()
    with (
        ScriptedLLM(default="one", model=ALIAS, models_entry=LLAMA_CPP_PYTHON) as a,
        ScriptedLLM(default="two", model=ALIAS, models_entry=LLAMA_CPP_PYTHON) as b,
    ):
        assert (ask(a, tmp_path), ask(b, tmp_path)) == ("one", "two")
        assert (a.requests, b.requests) == (1, 1)
        found = identity(b.api_base, ALIAS)
        assert not found.identifying
        assert f":{b.port}" in found.address
        assert found.served is None


def test_a_weights_path_or_llama_cpps_meta_identifies_and_volatile_fields_never_enter_the_key(
    tmp_path: Path,
) -> None:
    forget()
    vllm = {"owned_by": "vllm", "root": "/weights/qwen-7b-awq", "permission": [{"id": "perm-1"}]}
    with ScriptedLLM(default="answer", model=ALIAS, models_entry=vllm) as first:
        found = identity(first.api_base, ALIAS)
        assert found.identifying
        assert found.served == '{"root": "/weights/qwen-7b-awq"}'
        assert ask(first, tmp_path) == "answer"
    # Restarted on another port, with another per-request permission id: the same model.
    vllm["permission"] = [{"id": "perm-2"}]
    with ScriptedLLM(default="other", model=ALIAS, models_entry=vllm) as restarted:
        assert ask(restarted, tmp_path) == "answer"
        assert restarted.requests == 0
    meta = {"meta": {"n_params": 494032768, "size": 491400064, "n_vocab": 151936}}
    with ScriptedLLM(default="x", model=ALIAS, models_entry=meta) as llama:
        assert identity(llama.api_base, ALIAS).identifying
    with ScriptedLLM(default="x", model=ALIAS, models_entry={"root": "pau-policy"}) as alias:
        assert not identity(alias.api_base, ALIAS).identifying  # the alias again says nothing
