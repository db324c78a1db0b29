"""How long parse + check of a rule file takes in a fresh process, beyond interpreter start-up.

    python -m provost.tools.dev.bench_check [PATH ...] [--runs N] [--budget MS]

For each file, runs `python -c "<import the loader and check PATH>"` and a bare
`python -c pass` alternately, N times each (after one warm-up run that also fills the grammar
cache and the bytecode cache), and reports the medians and their difference: the cost a
`provost check` user pays on top of starting Python.  Both wall-clock time and CPU time (user +
system, of the child) are reported; on a busy machine the CPU figure is the steadier one.

Bytecode is cached as in any installed package (a private PYTHONPYCACHEPREFIX, so a
PYTHONDONTWRITEBYTECODE in the environment does not turn every run into a compile);
--cold-bytecode measures with no bytecode cache instead.

The bench keeps its own cache directory (PROVOST_CACHE_DIR).  By default a file's parsed IR and
check results are cached as they are for a user who checks a file again unchanged; --edited
removes them before every run (the grammar's tables stay), which is what a user pays right
after editing the file.  With --budget, exits 1 when a file's
wall-clock figure exceeds it (the issue's bar is 150 ms for a shipped ruleset).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT = os.path.join(ROOT, "rulesets", "caylus.rules")
BUDGET_MS = 150.0

CHECK = ("import sys\n"
         "from provost.dsl.loader import check_file\n"
         "diags = check_file(sys.argv[1])\n"
         "sys.exit(1 if any(d.severity == 'error' for d in diags) else 0)\n")


CACHE_DIR = os.path.join(tempfile.gettempdir(), "provost-bench-cache-%d" % os.getuid())


def _env(cold: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PROVOST_CACHE_DIR=CACHE_DIR)
    env.pop("PROVOST_NO_CACHE", None)
    if cold:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "provost-bench-pycache")
    return env


def _run(args: list[str], env: dict) -> tuple[float, float]:
    """(wall ms, cpu ms) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError("%s failed:\n%s" % (" ".join(args[:2]), done.stderr.decode(errors="replace")))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000


def _forget_rules() -> None:
    """Remove the cached IR and check results, keeping the grammar's tables."""
    for name in os.listdir(CACHE_DIR) if os.path.isdir(CACHE_DIR) else ():
        if name.startswith(("ir-", "checks-")):
            os.unlink(os.path.join(CACHE_DIR, name))


def measure(path: str, runs: int = 5, cold: bool = False, edited: bool = False) -> dict:
    """Medians in ms: wall and cpu for the check, for start-up, and the difference ("beyond")."""
    env = _env(cold)
    check = [sys.executable, "-c", CHECK, path]
    bare = [sys.executable, "-c", "pass"]
    _run(check, env)   # warm-up: the grammar cache, the bytecode cache, the OS file cache
    _run(bare, env)
    checks, bares = [], []
    for _ in range(runs):
        if edited:
            _forget_rules()
        checks.append(_run(check, env))
        bares.append(_run(bare, env))
    out = {}
    for k, which in (("wall", 0), ("cpu", 1)):
        c = statistics.median(x[which] for x in checks)
        b = statistics.median(x[which] for x in bares)
        out[k] = {"check": c, "startup": b, "beyond": c - b}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m provost.tools.dev.bench_check", description=__doc__.splitlines()[0])
    p.add_argument("paths", nargs="*", default=[DEFAULT], metavar="PATH")
    p.add_argument("--runs", type=int, default=5, help="timed runs of each command (default 5)")
    p.add_argument("--cold-bytecode", action="store_true", help="measure without a bytecode cache")
    p.add_argument("--edited", action="store_true",
                   help="measure a file just edited: no cached IR or check results")
    p.add_argument("--budget", type=float, default=None, metavar="MS",
                   help="exit 1 if parse + check beyond start-up exceeds MS (the issue's bar: %g)" % BUDGET_MS)
    args = p.parse_args(argv)
    runs = max(1, args.runs)
    over = False
    for path in args.paths:
        m = measure(path, runs, args.cold_bytecode, args.edited)
        w, c = m["wall"], m["cpu"]
        print("%s: parse + check %.0f ms beyond interpreter start-up (median of %d; wall %.0f ms vs %.0f ms for "
              "'python -c pass'; CPU %.0f ms beyond, %.0f vs %.0f)"
              % (os.path.relpath(path), w["beyond"], runs, w["check"], w["startup"], c["beyond"], c["check"],
                 c["startup"]))
        if args.budget is not None and w["beyond"] > args.budget:
            over = True
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
