"""The stages of ``reference_conformance.py`` that touch files, processes and models.

The pure row mapping and agreement rules are in ``conformance_rows.py`` (unit-tested);
this module only moves data between the reference's files, our reports and the two
scorers, and writes the results.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import conformance_rows as rows

# -- the reference and its data ------------------------------------------------------------

WRAPPER = '''"""Written by benchmarks/reference_conformance.py: the reference's baselines.py command
line, with the interactive loop's iteration limit lowered to {max_iterations} (the default
argument of baselines.interactive; nothing else changes)."""
import os
import sys

sys.path.insert(0, os.getcwd())
import baselines  # noqa: E402

defaults = list(baselines.interactive.__defaults__)
if defaults[:2] != [20, 10]:
    raise SystemExit(f"unexpected defaults of baselines.interactive: {{defaults}}")
defaults[0] = {max_iterations}
baselines.interactive.__defaults__ = tuple(defaults)
baselines.cli()
'''


def prepare_reference(
    reference: Path, work: Path, agent: str, judge: str, coder: str, max_iterations: int
) -> None:
    """Export the reference into ``work/ref`` and point its config files at local data."""
    dest = work / "ref"
    if not (dest / "baselines.py").exists():
        dest.mkdir(parents=True, exist_ok=True)
        if (reference / "HEAD").is_file() and (reference / "objects").is_dir():
            archive = subprocess.run(
                ["git", f"--git-dir={reference}", "archive", "HEAD"],
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
            commit = subprocess.run(
                ["git", f"--git-dir={reference}", "rev-parse", "HEAD"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
        elif (reference / "baselines.py").is_file():
            shutil.copytree(
                reference,
                dest,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns(".git", "results"),
            )
            commit = "(a checked-out folder)"
        else:
            raise SystemExit(f"--reference {reference}: neither a git dir nor the reference tree")
        (work / "reference_commit.txt").write_text(commit + "\n", encoding="utf-8")
    configs = dest / "configs"
    _set_keys(
        configs / "project_vars.yaml",
        {
            "debug": "False",
            "evaluation_model_name": f'"{judge}"',
            "code_generation_model_name": f'"{coder}"',
        },
    )
    _set_keys(
        configs / "private_vars.yaml",
        {
            "storage_dir": f'"{work / "storage"}"',
            "huggingface_repo_namespace": f'"{work / "data"}"',
            "huggingface_repo_name": '"pau_local"',
        },
    )
    (work / "interactive_wrapper.py").write_text(
        WRAPPER.format(max_iterations=max_iterations), encoding="utf-8"
    )


def _set_keys(path: Path, values: dict[str, str]) -> None:
    """Set ``key: value`` lines of a YAML file, keeping every other line as it is."""
    text = path.read_text(encoding="utf-8")
    for key, value in values.items():
        text, n = re.subn(rf"(?m)^{key}:[^\n]*", f"{key}: {value}", text)
        if n != 1:
            raise SystemExit(f"{path}: expected one line '{key}: ...', found {n}")
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def build_datasets(work: Path, ids: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Write both datasets; return the reference rows by local id, in order."""
    from pytest_pau.dataset import load_dataset

    builtin = {i.local_id: i for i in load_dataset("builtin")}
    chosen = [builtin[i] for i in ids]
    ref_rows = {i.local_id: rows.reference_row(i) for i in chosen}
    data = work / "data" / "pau_local"
    data.mkdir(parents=True, exist_ok=True)
    _write_jsonl(data / "test.jsonl", ref_rows.values())
    _write_jsonl(work / "conformance.jsonl", (rows.our_row(i) for i in chosen))
    return ref_rows


def _write_jsonl(path: Path, lines: Any) -> None:
    path.write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


# -- the model server -----------------------------------------------------------------------


def server_code(weights: Path, *, port: int, threads: int, repack: bool) -> str:
    """``python -c`` text that starts llama-cpp-python's server as pytest-pau loads models.

    Where llama.cpp's AMX repacking crashes (``pytest_pau.llm.local.provider``), the model
    parameters the server reads have ``use_extra_bufts`` switched off, as
    ``provider._weight_repacking`` does for the embedded models.
    """
    patch = (
        ""
        if repack
        else (
            "orig = llama_cpp.llama_model_default_params\n"
            "def defaults():\n"
            "    params = orig()\n"
            "    params.use_extra_bufts = False\n"
            "    return params\n"
            "llama_module.llama_cpp.llama_model_default_params = defaults\n"
        )
    )
    argv = [
        "llama_cpp.server",
        "--model",
        str(weights),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "8192",
        "--n_threads",
        str(threads),
        "--n_threads_batch",
        str(threads),
        "--seed",
        "0",
    ]
    return (
        "import sys\nimport llama_cpp\nimport llama_cpp.llama as llama_module\n"
        + patch
        + "from llama_cpp.server.__main__ import main\n"
        + f"sys.argv = {argv!r}\nmain()\n"
    )


def wait_for(url: str, process: subprocess.Popen[bytes], *, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the model server exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(1)
    raise SystemExit(f"the model server did not answer {url} in {timeout_s:.0f} s")


#: What the proxy sets on every chat completion: greedy decoding, a fixed seed, no
#: repetition penalty (llama-cpp-python's server would apply 1.1), for both tools alike.
SAMPLING = {"temperature": 0.0, "seed": 0, "top_p": 1.0, "repeat_penalty": 1.0}


def flat_message(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` with a content list of text parts joined into one string.

    The reference sends ``content`` as ``[{"type": "text", "text": ...}]``; the chat
    template in the Qwen2.5 GGUF concatenates content as a string, so llama.cpp's server
    answers HTTP 500 to a list. For text-only parts the joined string is the same prompt.
    """
    content = message.get("content")
    if isinstance(content, list) and all(
        isinstance(p, dict) and p.get("type") == "text" for p in content
    ):
        return {**message, "content": "".join(str(p.get("text", "")) for p in content)}
    return message


def start_proxy(port: int, upstream: int, log: Path) -> ThreadingHTTPServer:
    """A forwarding proxy that sets :data:`SAMPLING` and logs every exchange as JSONL."""
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def _forward(self, body: bytes | None) -> None:
            started = time.perf_counter()
            record: dict[str, Any] = {"path": self.path}
            if body is not None and self.path.endswith("/chat/completions"):
                request = json.loads(body)
                record["sent"] = {k: request.get(k) for k in SAMPLING}
                record["model"] = request.get("model")
                record["max_tokens"] = request.get("max_tokens")
                request.update(SAMPLING)
                request["messages"] = [flat_message(m) for m in request.get("messages", [])]
                body = json.dumps(request).encode()
            conn = http.client.HTTPConnection("127.0.0.1", upstream, timeout=1800)
            conn.request(
                self.command, self.path, body=body, headers={"Content-Type": "application/json"}
            )
            reply = conn.getresponse()
            data = reply.read()
            record.update(status=reply.status, seconds=round(time.perf_counter() - started, 2))
            with lock, log.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(record) + "\n")
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.getheader("Content-Type") or "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._forward(None)

        def do_POST(self) -> None:
            self._forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# -- imports and cross-scoring -----------------------------------------------------------


def import_reference(work: Path, run: str, judge: str, code_run: str) -> None:
    from pytest_pau.cli.main import main

    if (work / "ref.json").exists():
        return
    results = work / "ref" / "results"
    status = main(
        [
            "import-reference",
            str(results / "predictions" / f"{run}.jsonl"),
            str(results / "evals" / f"{run}_description_prediction_judge-{judge}.jsonl"),
            str(results / "evals" / f"{code_run}.jsonl"),
            "-o",
            str(work / "ref.json"),
            "--dataset",
            str(work / "conformance.jsonl"),
            "--dataset-outputs",
            "repr",
        ]
    )
    if status:
        raise SystemExit(f"pau import-reference failed with status {status}")


def ours_through_reference(
    work: Path,
    ref_rows: dict[str, dict[str, Any]],
    run_ref: Callable[..., None],
    ours_run: str,
    ours_code_run: str,
    our_code: str,
) -> None:
    """Our descriptions through the reference's judge and coder; our coder's code through
    the reference's code scorer."""
    from pytest_pau.report.json_report import read_report

    ours = {r.id.split("/", 1)[1]: r for r in read_report(work / "ours.json").instances}
    results = work / "ref" / "results"
    preds = results / "predictions"
    if not (preds / f"{ours_run}.jsonl").exists():
        _write_jsonl(
            preds / f"{ours_run}.jsonl",
            (rows.predictions_row(row, ours[i]) for i, row in ref_rows.items()),
        )
    if not (results / "evals" / f"{ours_run}_description_prediction_judge-gpt-4o.jsonl").exists():
        run_ref("eval.py", "description", "--load_name", ours_run)
    if not (preds / f"{ours_code_run}.jsonl").exists():
        run_ref("baselines.py", "code", "--load_name", ours_run, "--save_name", ours_code_run)
    if not (results / "evals" / f"{ours_code_run}.jsonl").exists():
        run_ref("eval.py", "code", "--load_name", ours_code_run)
    if not (preds / f"{our_code}.jsonl").exists():
        _write_jsonl(
            preds / f"{our_code}.jsonl",
            (rows.code_row(row, ours[i].code, "pytest-pau") for i, row in ref_rows.items()),
        )
    if not (results / "evals" / f"{our_code}.jsonl").exists():
        run_ref("eval.py", "code", "--load_name", our_code)


def reference_through_ours(work: Path, base_url: str) -> None:
    """The reference's descriptions through our judge and coder (temperature 0)."""
    import os

    from pytest_pau.dataset import load_dataset
    from pytest_pau.llm import make_client
    from pytest_pau.models import CallResult, Example, Trajectory
    from pytest_pau.report.json_report import read_report
    from pytest_pau.scoring.coder import Coder, run_code
    from pytest_pau.scoring.judge import Judge

    out = work / "ref_through_ours.json"
    if out.exists():
        return
    os.environ.setdefault("OPENAI_API_KEY", "conformance")
    cache = work / "cache"
    judge = Judge(make_client("openai/pau-judge", api_base=base_url, cache_dir=cache))
    coder = Coder(make_client("openai/pau-coder", api_base=base_url, cache_dir=cache))
    instances = {i.id: i for i in load_dataset(str(work / "conformance.jsonl"), outputs="repr")}
    found: dict[str, Any] = {}
    for item in read_report(work / "ref.json").instances:
        instance = instances[item.id]
        judged = judge.score(instance, item.prediction)
        # What the reference's agent saw: the starting examples, then its own calls.
        traj = Trajectory(steps=item.trajectory)
        observed: list[Example | tuple[str, CallResult]] = [
            *instance.train_examples,
            *traj.observed(),
        ]
        code, _ = coder.write(instance, item.prediction, observed)
        matched = run_code(code, instance.test_examples)
        found[item.id] = {
            "judge": judged.score,
            "explanation": judged.explanation,
            "code": code,
            "code_match": matched.score,
        }
    out.write_text(json.dumps(found, indent=1), encoding="utf-8")
