"""Running at a provider's quota: today's limiter against the pacer, in one command.

A :class:`~pytest_pau.testing.ScriptedLLM` enforces a quota the way providers do (RPM and
TPM token buckets, 429 with ``retry-after-ms``, ``x-ratelimit-*`` headers on every answer;
``burst_s=1``: enforced per second, as OpenAI warns it may). Two scenarios, each run with
the tree before the pacer (``--baseline-rev``, exported with ``git archive``) and with this
tree, alternating:

1. **pytest** (500 RPM / 200,000 TPM by default): ``pytest --pau-model=<scripted>`` on 96
   items (the builtin set), every role on the quota's server, ``--pau-concurrency=64``,
   ``--pau-no-cache``: the real client, litellm and all.
2. **driver** (10,000 RPM / 4,000,000 TPM by default): 64 threads send requests of a
   PAU-like mix of sizes through each tree's limiter (and this tree's pacer) with a light
   HTTP client instead of litellm, whose ~10 ms of CPU per request would cap a 2-core
   machine far below 166 requests a second; the retries honour ``retry-after`` as the
   client's do.

For each run: requests answered and refused (429), and throughput against the quota: what
the server admitted over its first-to-last-request window, as a share of what the quota
allowed in that window (a full bucket plus its refill), for requests and for tokens; the
larger of the two is the bucket that bound.

    python benchmarks/quota_bench.py                   # both scenarios (about 10 minutes)
    python benchmarks/quota_bench.py --only driver     # the 10,000 RPM case (~2 minutes)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from concurrency_bench import write_dataset
from plugin_bench import RULES

from pytest_pau.paths import user_cache_dir
from pytest_pau.testing import ScriptedLLM

ROOT = Path(__file__).resolve().parents[1]


def baseline_rev() -> str:
    """The commit before the pacer was added."""
    added = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", "pytest_pau/llm/pacing.py"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return f"{added[-1]}^" if added else "HEAD"


def export(rev: str, folder: Path) -> Path:
    """``rev``'s tree (git archive) in ``folder``."""
    folder.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def quota_share(llm: ScriptedLLM, first: int) -> dict[str, float]:
    """Admitted, refused, and the share of the quota used over the run's window."""
    ex = [e for e in llm.exchanges[first:] if e.quota is not None]
    admitted = [e for e in ex if e.quota and e.quota.admitted]
    window = max(e.start for e in ex) - min(e.start for e in ex)
    out: dict[str, float] = {
        "requests": len(ex),
        "answered": len(admitted),
        "refused": len(ex) - len(admitted),
        "window_s": window,
    }
    q = llm.quota
    assert q is not None
    if q.requests is not None:
        allowed = q.requests.capacity + q.requests.rate * window
        out["rpm_share"] = len(admitted) / allowed
    if q.tokens is not None:
        allowed = q.tokens.capacity + q.tokens.rate * window
        out["tpm_share"] = sum(e.quota.tokens for e in admitted if e.quota) / allowed
    out["quota_share"] = max(out.get("rpm_share", 0.0), out.get("tpm_share", 0.0))
    t0 = min(e.start for e in ex)
    refused = [e for e in ex if e.quota and not e.quota.admitted]
    out["refusals"] = [
        f"{e.start - t0:.1f}s {e.quota.refused_by} "
        f"{e.quota.requests_before if e.quota.refused_by == 'requests' else e.quota.tokens_before:.1f}"
        f"/{e.quota.tokens}"
        for e in refused[:40]
        if e.quota
    ]
    return out


def run_pytest(llm: ScriptedLLM, tree: Path, folder: Path, args: argparse.Namespace) -> dict:
    folder.mkdir(parents=True)
    write_dataset(folder / "set.jsonl", args.instances)
    cmd = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
        f"--pau-model={llm.model}", f"--pau-api-base={llm.api_base}",
        f"--pau-judge-model={llm.model}", f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}", f"--pau-coder-api-base={llm.api_base}",
        "--pau-dataset=set.jsonl", f"--pau-max-iterations={args.iterations}",
        "--pau-no-cache", "--pau-concurrency=64",
    ]  # fmt: skip
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "PAU_USER_CACHE": str(user_cache_dir()),
        # A refused request is retried until it is answered, as a patient user would.
        "PAU_RETRY_ATTEMPTS": "50",
        "PAU_RETRY_MAX_TOTAL_S": "600",
    }
    first = len(llm.exchanges)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode not in (0, 1) or "PAU summary" not in proc.stdout:
        sys.stdout.write(proc.stdout[-3000:] + proc.stderr[-2000:])
        raise SystemExit(f"pytest with {tree} failed ({proc.returncode})")
    out = quota_share(llm, first)
    out["wall_s"] = wall
    out["first_request_s"] = llm.exchanges[first].start - start
    out["summary"] = [ln for ln in proc.stdout.splitlines() if ln.startswith(("paced", "waited"))]
    return out


def run_driver(llm: ScriptedLLM, tree: Path, args: argparse.Namespace) -> dict:
    first = len(llm.exchanges)
    cmd = [sys.executable, __file__, "--drive", llm.api_base, "--requests", str(args.requests)]
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{Path(__file__).parent}"}
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout[-3000:] + proc.stderr[-3000:])
        raise SystemExit(f"the driver with {tree} failed ({proc.returncode})")
    out = quota_share(llm, first)
    out["wall_s"] = wall
    out["summary"] = [proc.stdout.strip().splitlines()[-1]]
    return out


def show(name: str, rows: list[tuple[str, dict]], quota: str, refusals: bool = False) -> None:
    print(f"\n{name} ({quota})")
    print("| tree | requests | answered | refused (429) | share refused | RPM used | TPM used "
          "| quota used | wall s |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for tree, r in rows:
        print(
            f"| {tree} | {r['requests']:.0f} | {r['answered']:.0f} | {r['refused']:.0f} | "
            f"{r['refused'] / r['requests']:.1%} | {r.get('rpm_share', 0):.1%} | "
            f"{r.get('tpm_share', 0):.1%} | **{r['quota_share']:.1%}** | {r['wall_s']:.1f} |"
        )
    for tree, r in rows:
        for line in r.get("summary", []):
            print(f"  {tree}: {line}")
        if refusals:
            print(f"  {tree}: 429s at (time, bucket, level/charge): {r['refusals']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["pytest", "driver"])
    parser.add_argument("--baseline-rev", default=None)
    parser.add_argument("--instances", type=int, default=96)
    parser.add_argument("--iterations", type=int, default=1)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--rpm", type=float, default=500)
    parser.add_argument("--tpm", type=float, default=200_000)
    parser.add_argument("--driver-rpm", type=float, default=10_000)
    parser.add_argument("--driver-tpm", type=float, default=4_000_000)
    parser.add_argument("--driver-latency", type=float, default=0.05)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--drive", help=argparse.SUPPRESS)
    parser.add_argument("--skip-baseline", action="store_true", help="this tree only")
    parser.add_argument("--refusals", action="store_true", help="list when 429s came")
    args = parser.parse_args()
    if args.drive:
        return drive(args.drive, args.requests)
    rev = args.baseline_rev or baseline_rev()
    print(f"load average at the start: {os.getloadavg()}; {os.cpu_count()} cores")
    print(f"baseline: {rev} ({subprocess.getoutput(f'git -C {ROOT} rev-parse --short {rev}')})")
    with tempfile.TemporaryDirectory() as tmp:
        base = export(rev, Path(tmp) / "baseline")
        trees = [("today's limiter", base), ("pacer", ROOT)][1 if args.skip_baseline else 0 :]
        if args.only in (None, "pytest"):
            rows = []
            with ScriptedLLM(
                RULES, delay_s=args.latency, rpm=args.rpm, tpm=args.tpm, burst_s=1.0
            ) as llm:
                for i, (name, tree) in enumerate(trees):
                    rows.append((name, run_pytest(llm, tree, Path(tmp) / f"p{i}", args)))
            show(
                f"pytest, {args.instances} items x {args.iterations} iteration(s), "
                f"--pau-concurrency=64, latency {args.latency} s",
                rows,
                f"{args.rpm:,.0f} RPM / {args.tpm:,.0f} TPM",
                args.refusals,
            )
        if args.only in (None, "driver"):
            rows = []
            with ScriptedLLM(
                default="ok",
                delay_s=args.driver_latency,
                rpm=args.driver_rpm,
                tpm=args.driver_tpm,
                burst_s=1.0,
            ) as llm:
                for name, tree in trees:
                    rows.append((name, run_driver(llm, tree, args)))
            show(
                f"driver, 64 threads, {args.requests} requests, latency {args.driver_latency} s",
                rows,
                f"{args.driver_rpm:,.0f} RPM / {args.driver_tpm:,.0f} TPM",
                args.refusals,
            )
    print(f"\nload average at the end: {os.getloadavg()}")
    return 0


# -- the driver: one process, 64 threads, each tree's own limiter (and pacer) -------------

#: Output caps of PAU's calls (llm/caps.py: reason, act, reflect, judge, coder) and prompt
#: sizes in words, cycled through so both trees send the same mix.
CAPS = (256, 128, 384, 256, 768)
PROMPT_WORDS = (180, 220, 260, 300, 420)


class _HTTPError(Exception):
    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status_code = status
        self.body = body.get("error", body)
        self.litellm_response_headers = headers


class _Answer:
    def __init__(self, headers: dict[str, str]) -> None:
        self._hidden_params = {
            "additional_headers": {f"llm_provider-{k}": v for k, v in headers.items()}
        }


def drive(api_base: str, total: int) -> int:  # pragma: no cover - run as a subprocess
    import http.client
    import itertools
    import threading
    from urllib.parse import urlsplit

    from pytest_pau.llm import limits
    from pytest_pau.llm.retry import retry_after_s

    try:
        from pytest_pau.llm import attempt, pacing
    except ImportError:
        attempt = pacing = None  # the tree before the pacer
    url = urlsplit(api_base)
    endpoint = f"{url.hostname}:{url.port}"
    limits.configure(64)
    if pacing is not None:
        pacing.configure(None, None, 1)
    counter = itertools.count()
    local = threading.local()

    def post(body: dict[str, Any]) -> _Answer:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        conn.request("POST", f"{url.path}/chat/completions", json.dumps(body),
                     {"Content-Type": "application/json"})  # fmt: skip
        response = conn.getresponse()
        data = json.loads(response.read() or b"{}")
        headers = {k.lower(): v for k, v in response.getheaders()}
        if response.status != 200:
            raise _HTTPError(response.status, data, headers)
        return _Answer(headers)

    def once(kwargs: dict[str, Any]) -> Any:
        if attempt is not None:
            return attempt.send(
                lambda **kw: post(kw["body"]), kwargs, endpoint=endpoint, model="openai/x"
            )
        limiter = limits.limiter_for(endpoint)
        assert limiter is not None
        limiter.acquire()
        limited = False
        try:
            return post(kwargs["body"])
        except _HTTPError as exc:
            limited = exc.status_code == 429
            raise
        finally:
            limiter.release(rate_limited=limited)

    def worker() -> None:
        while (n := next(counter)) < total:
            words, cap = PROMPT_WORDS[n % 5], CAPS[n % 5]
            messages = [{"role": "user", "content": " ".join(["word"] * words) + f" {n}"}]
            body = {"model": "x", "messages": messages, "max_tokens": cap}
            for tries in itertools.count(1):
                try:
                    once({"messages": messages, "max_tokens": cap, "body": body})
                    break
                except _HTTPError as exc:
                    wait = retry_after_s(exc)
                    time.sleep(wait if wait is not None else min(8.0, 0.05 * 2**tries))

    start = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(64)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"{total} requests answered in {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
