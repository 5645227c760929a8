"""Every command the README and the docs pages show is run by a test, and this says which.

The commands are those of the fenced ``bash`` (``sh``, ``shell``) and ``console`` blocks,
one per logical line (``tests/docs/pages.commands``). A command that appears, or changes,
without an entry in ``COVERED`` fails here: add the test that runs it, then the entry. An
entry whose command no page shows any more fails too, and so does one that names a test
that does not exist, or whose file does not read each page the command is on.
"""

from __future__ import annotations

import re

import pytest

from tests.docs.pages import ROOT, commands, fenced, page, page_names

LANGS = ("bash", "sh", "shell", "console")

QUICK_START = 'python3.11 -m venv .venv && .venv/bin/pip install -e ".[local]" && cd demo && ../.venv/bin/pytest -v --pau-model=local -m smoke --pau-limit=1 --pau-max-iterations=3 --pau-report=report.json --pau-html=report.html'
TEST_SUITE = 'python3.11 -m venv .venv && .venv/bin/pip install -e ".[dev]" && .venv/bin/python -m pytest -n 2 tests'
SERVED = "--pau-model=openai/my-model --pau-api-base=http://localhost:8000/v1"
GPT5 = "--pau-judge-model=gpt-5 --pau-coder-model=gpt-5"

EVERYDAY = "tests/docs/test_readme_everyday.py::test_the_everyday_commands_run_in_order"
PROVIDERS = "tests/docs/test_providers_page.py::test_provider_command_runs"
SELECTING = "tests/docs/test_datasets_page.py::test_selection_command_selects_what_it_says"
DATASET_FORMAT = "tests/test_readme_commands.py::test_the_dataset_format_commands_list_the_items"
PAU_TRAIN = "tests/train/test_readme_commands.py::test_readme_command_runs"

#: command -> the tests that run it (or, where it cannot run here, check it: say so there).
PAPER = "tests/plugin/test_docs_paper.py::test_the_paper_pages_commands_run"
IMPORT = "tests/cli/test_import_reference.py::test_the_documented_commands_run"
CONFORMANCE = (
    "tests/benchmarks/test_conformance_rows.py::test_the_documented_benchmark_command_parses"
)
CI_PAGE = "tests/plugin/test_ci_recipe.py::test_the_pages_shard_and_cache_commands_run_as_written"

COVERED: dict[str, tuple[str, ...]] = {
    # README.md and docs/getting-started.md: the two commands.
    QUICK_START: (
        "tests/test_readme_commands.py::test_the_quick_start_command_in_its_folder",
        "tests/test_readme_commands.py::test_getting_started_shows_the_readmes_two_commands_first_and_exactly",
    ),
    TEST_SUITE: (
        "tests/docs/test_readme.py::test_ci_runs_the_readme_test_command",
        "tests/test_readme_commands.py::test_getting_started_shows_the_readmes_two_commands_first_and_exactly",
    ),
    # README.md: the everyday commands, in order, in one folder.
    f"pytest --pau-model=gpt-5-mini {GPT5} --pau-max-cost-usd=5 --pau-report=report.json --pau-html=report.html": (
        EVERYDAY,
    ),
    f"pytest {SERVED} {GPT5} --pau-baseline=report.json --pau-min-pass-rate=0.6 --pau-early-stop --pau-report=candidate.json": (
        EVERYDAY,
    ),
    "pau compare report.json candidate.json --fail-if-worse judge:0.2": (EVERYDAY,),
    "pau show candidate.json": (EVERYDAY,),
    "pau show candidate.json --failed": (EVERYDAY,),
    "pau show candidate.json builtin/vowels_minus_consonants --full": (EVERYDAY,),
    "pau call builtin/vowels_minus_consonants \"('banana',)\"": (
        EVERYDAY,
        "tests/cli/test_readme_examples.py::test_pau_call_example_runs",
    ),
    f'pytest {SERVED} {GPT5} -k "builtin/vowels_minus_consonants" -v': (EVERYDAY,),
    # README.md: Development.
    ".venv/bin/python -m pytest -n 2 tests": (
        "tests/docs/test_readme.py::test_ci_runs_the_readme_test_command",
    ),
    ".venv/bin/ruff check pytest_pau tests": (
        "tests/docs/test_readme.py::test_ruff_check_as_the_readme_shows",
    ),
    # docs/providers.md
    f"pytest --pau-model=gpt-5-mini {GPT5} --pau-max-cost-usd=5 --pau-report=gpt-5-mini.json -n 8": (
        PROVIDERS,
    ),
    f"pytest --pau-model=anthropic/claude-opus-4 {GPT5}": (PROVIDERS,),
    "pytest --pau-model=ollama/qwen3:8b": (PROVIDERS,),
    f"pytest {SERVED}": (PROVIDERS,),
    f"pytest --pau-model=oracle {GPT5}": (PROVIDERS,),
    f"pytest --pau-model=null {GPT5}": (PROVIDERS,),
    "pytest --pau-model=gpt-5-mini --pau-max-rpm=500 --pau-max-tpm=200000 -n 2": (
        "tests/docs/test_providers_quota.py::test_the_known_quota_command",
    ),
    "pytest --pau-model=gpt-5-mini --pau-service-tier=flex": (
        "tests/docs/test_providers_quota.py::test_the_flex_command",
    ),
    # docs/datasets.md
    'pytest --pau-model=M -m "smoke"': (SELECTING,),
    'pytest --pau-model=M -m "arity2 and hard"': (SELECTING,),
    'pytest --pau-model=M -k "builtin/vowels_minus_consonants"': (SELECTING,),
    "pytest --pau-model=M -m arity1 --pau-limit=20": (SELECTING,),
    "pytest --pau-model=M --lf": (SELECTING,),
    "pytest --pau-model=M --collect-only -q": (SELECTING,),
    "pytest --pau-model=oracle --pau-dataset=methods.jsonl --collect-only -q": (DATASET_FORMAT,),
    "pytest --pau-model=oracle --pau-dataset=methods.jsonl --pau-dataset-outputs=json": (
        DATASET_FORMAT,
    ),
    # docs/training.md
    'pau train --dry-run -- -m "arity2 and hard" -k "not legacy"': (PAU_TRAIN,),
    "pau train --policy tiny-random --critic local-small --steps 3 --samples-per-prompt 2 --output runs/smoke -- -m smoke --pau-max-iterations=2": (
        PAU_TRAIN,
    ),
    "pau train --policy smollm2 --critic local --reward aac --output runs/aac -- -m smoke": (
        PAU_TRAIN,
    ),
    "pau train --policy smollm2 --output runs/aac --resume -- -m smoke": (PAU_TRAIN,),
    "pau train --policy smollm2 --critic local --output runs/lf -- --lf": (PAU_TRAIN,),
    "pau train --serve runs/aac/adapter": (
        PAU_TRAIN,
        "tests/train/test_readme_commands.py::test_the_served_adapter_is_evaluated_as_the_page_shows",
    ),
    "pytest --pau-model=openai/pau-policy-1a2b3c4d --pau-api-base=http://127.0.0.1:PORT/v1 --pau-limit 20": (
        "tests/train/test_readme_commands.py::test_the_served_adapter_is_evaluated_as_the_page_shows",
    ),
    # Checked, not run: the install of a GPU cluster.
    'pip install "pytest-pau[skyrl] @ git+$PAU_GIT" skyrl-train': (
        "tests/train/test_readme_commands.py::test_the_cluster_install_line_names_what_the_skyrl_backend_needs",
    ),
    "pau train --backend skyrl --policy Qwen/Qwen3-8B --critic openai/your-judge --critic-api-base http://judge:8000/v1 --samples-per-prompt 8 --lora-rank 16 --lora-alpha 16 --epochs 5 --output runs/skyrl -- --pau-dataset=hf:DJ-Research/PAU-Benchmark --pau-split=train": (
        PAU_TRAIN,
    ),
    "pau train --backend skyrl --dry-run --policy Qwen/Qwen3-8B --output runs/skyrl-smoke -- -m smoke": (
        PAU_TRAIN,
        "tests/train/test_skyrl.py::test_the_docs_show_the_resolved_config_this_command_prints",
    ),
    # docs/paper.md and the reference's data in docs/datasets.md (with scripted servers).
    "vllm serve meta-llama/Llama-3.1-70B-Instruct --port 8001": (
        "tests/plugin/test_docs_paper.py::test_the_vllm_lines_are_the_ones_a_run_without_servers_prints",
    ),
    "vllm serve Qwen/Qwen3-Coder-30B-A3B-Instruct --port 8002": (
        "tests/plugin/test_docs_paper.py::test_the_vllm_lines_are_the_ones_a_run_without_servers_prints",
    ),
    "pytest --pau-protocol=paper --pau-model=gpt-5.4-mini --pau-dataset=hf:DJ-Research/PAU-Benchmark --pau-judge-api-base=http://127.0.0.1:8001/v1 --pau-coder-api-base=http://127.0.0.1:8002/v1 --pau-coder=self --pau-report=gpt-5.4-mini.json": (
        PAPER,
    ),
    "pytest --pau-protocol=paper --pau-model=gpt-5.4-mini --pau-dataset=hf:DJ-Research/PAU-Benchmark --pau-judge-api-base=http://127.0.0.1:8001/v1 --pau-coder-api-base=http://127.0.0.1:8002/v1 --pau-coder=self --pau-mode=incontext --pau-report=gpt-5.4-mini-incontext.json": (
        PAPER,
    ),
    "pau paper gpt-5.4-mini.json gpt-5.4-mini-incontext.json -o paper": (PAPER,),
    "pytest --collect-only --pau-model=oracle --pau-dataset=hf:DJ-Research/PAU-Benchmark --pau-dataset-outputs=recompute": (
        PAPER,
    ),
    "pytest --collect-only --pau-model=oracle --pau-dataset=pau_reference.jsonl --pau-dataset-outputs=recompute": (
        "tests/plugin/test_docs_paper.py::test_the_datasets_page_command_prints_what_the_page_shows",
    ),
    # docs/ci.md: shards, merge, caches that travel (run as written, scripted model).
    "pytest --pau-model=MODEL --pau-shard=1/3 --pau-report=shard-1.json": (CI_PAGE,),
    "pytest --pau-model=MODEL --pau-shard=2/3 --pau-report=shard-2.json": (CI_PAGE,),
    "pytest --pau-model=MODEL --pau-shard=3/3 --pau-report=shard-3.json": (CI_PAGE,),
    "pau merge shard-1.json shard-2.json shard-3.json -o pau-report.json --gate": (CI_PAGE,),
    "pau cache export answers.sqlite3": (CI_PAGE,),
    "pau cache export new.sqlite3 --since 2026-12-01T10:00:00Z": (CI_PAGE,),
    "pau cache import answers.sqlite3 other/.pau_cache": (CI_PAGE,),
    # docs/providers.md: where the embedded models' pieces come from.
    "pau doctor": ("tests/cli/test_doctor.py::test_the_providers_page_shows_what_it_prints",),
    # docs/providers.md: llama-cpp-python's server, started as the embedded model is.
    "python -m pytest_pau.llm.local.server --model local-small --port 8000 &": (
        "tests/llm/test_local_server.py::test_the_server_answers_as_the_providers_page_says",
    ),
    "pytest --pau-model=openai/local-small --pau-api-base=http://localhost:8000/v1": (
        "tests/llm/test_local_server.py::test_the_server_answers_as_the_providers_page_says",
    ),
    # docs/paper.md: importing the reference's results (run), and the conformance benchmark
    # (its arguments parsed; the reference's set-up lines checked, not run: network, an hour).
    "pau import-reference results/predictions/interactive_gpt-5.4-mini.jsonl results/evals/interactive_gpt-5.4-mini_description_prediction_judge-Llama-3.1-70B-Instruct.jsonl results/evals/interactive_gpt-5.4-mini_code_prediction_judge-Qwen3-Coder-30B-A3B-Instruct.jsonl -o reference.json --dataset pau_test.jsonl": (
        IMPORT,
    ),
    "pau show reference.json": (IMPORT,),
    "pau show reference.json square": (IMPORT,),
    "pau compare reference.json ours.json": (IMPORT,),
    'python -m venv ref-env && ref-env/bin/pip install torch==2.13.0 transformers datasets pandas openai anthropic click seaborn pyyaml scipy "llama-cpp-python[server]"': (
        CONFORMANCE,
    ),
    "git clone https://github.com/DhananjayAshok/PAU-Benchmark pau-reference": (CONFORMANCE,),
    "python benchmarks/reference_conformance.py --reference pau-reference --reference-python ref-env/bin/python --workdir conformance --max-iterations 2": (
        CONFORMANCE,
    ),
}


def shown() -> dict[str, list[str]]:
    """Every command of every page -> the pages that show it."""
    found: dict[str, list[str]] = {}
    for name in page_names():
        for lang in LANGS:
            for block in fenced(page(name), lang):
                for command in commands(block, "console" if lang == "console" else "bash"):
                    found.setdefault(command, [])
                    if name not in found[command]:
                        found[command].append(name)
    return found


def test_every_command_the_pages_show_has_a_test() -> None:
    missing = {c: pages for c, pages in shown().items() if c not in COVERED}
    assert not missing, (
        "commands no test runs (add a test that runs each, then its entry in COVERED "
        f"in {__file__}): {missing}"
    )


def test_every_entry_is_a_command_some_page_shows() -> None:
    stale = sorted(set(COVERED) - set(shown()))
    assert not stale, f"COVERED names commands no page shows any more: {stale}"


@pytest.mark.parametrize("command", sorted(COVERED))
def test_the_entry_names_tests_that_exist_and_read_its_pages(command: str) -> None:
    pages = shown().get(command, [])
    readers: set[str] = set()
    for test_id in COVERED[command]:
        file, _, name = test_id.partition("::")
        path = ROOT / file
        assert path.is_file(), f"{test_id}: no such file"
        source = path.read_text(encoding="utf-8")
        assert re.search(rf"^def {re.escape(name)}\(", source, re.M), f"{test_id}: no such test"
        readers |= {p for p in pages if _reads(source, p)}
    assert readers == set(pages), (
        f"{command!r} is on {pages}, but {COVERED[command]} read only {sorted(readers)}"
    )


def _reads(source: str, name: str) -> bool:
    """Whether a test file reads page ``name`` (by its file name, or README by its constant)."""
    if name == "README.md":
        return bool(re.search(r"\bREADME\b", source))
    return f'"{name}"' in source
