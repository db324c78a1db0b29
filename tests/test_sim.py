"""`provost sim` (DESIGN.md section 6; issue 9): many seeded games and their report.

Same seeds give the same report (everything but ``timing``) across runs, ``--jobs`` and
backends; the report's fields; game i of a sim is `provost play --seed S+i`; ``--compare``;
an interrupted sim prints a partial report and exits 130 (by the stop-after hook in this
process and in a worker pool, and by a real SIGINT to a subprocess); ``--plot`` writes a PNG
(when matplotlib is installed); usage errors; the interval arithmetic against published values;
the Ray backend in a one-CPU local Ray (skipped without Ray).
"""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_run import run_cli as run
from provost.tools.cli import main
from provost.tools.cli.commands_sim import STOP_AFTER_ENV
from provost.tools.sim.stats import Moments, newcombe, wilson

ROOT = Path(__file__).resolve().parent.parent


def sim_json(capsys, *argv):
    code, out, err = run(capsys, "sim", *argv, "--format", "json")
    return code, json.loads(out), err


STATUS = ("ok", "error", "diagnostics")  # how the command ended, beside the report itself


def deterministic(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "timing" and k not in STATUS}


@pytest.fixture(scope="module")
def caylus_report():
    """12 four-player random games of Caylus, seeds 5..16, in this process."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["sim", "caylus", "--games", "12", "--seed", "5", "--format", "json"])
    assert code == 0
    return json.loads(buf.getvalue())


# ------------------------------------------------------------------ determinism
def test_same_seeds_same_report_across_runs_and_jobs(capsys, caylus_report):
    code, again, _ = sim_json(capsys, "caylus", "--games", "12", "--seed", "5")
    assert code == 0
    code, two_jobs, _ = sim_json(capsys, "caylus", "--games", "12", "--seed", "5", "--jobs", "2")
    assert code == 0
    assert deterministic(again) == deterministic(caylus_report) == deterministic(two_jobs)
    assert caylus_report["timing"]["jobs"] == 1 and two_jobs["timing"]["jobs"] == 2
    assert not multiprocessing.active_children()


def test_other_seeds_give_another_report(capsys, caylus_report):
    code, other, _ = sim_json(capsys, "caylus", "--games", "12", "--seed", "6")
    assert code == 0 and deterministic(other) != deterministic(caylus_report)


def test_game_i_is_provost_play_with_seed_s_plus_i(capsys):
    from provost.interpreter.gamelog import load_rules
    from provost.tools.sim.runner import SimSpec, play_one

    record = play_one(SimSpec(load_rules("caylus"), 3, ("random",) * 3, 40), 2)
    code, out, _ = run(capsys, "play", "caylus", "--players", "3", "--seed", "42", "--format", "json")
    assert code == 0
    played = json.loads(out)
    assert (record["scores"], record["winners"], record["rounds"], record["decisions"]) == \
        (played["scores"], played["winners"], played["rounds"], played["decisions"])


# ------------------------------------------------------------------ the report
def test_report_fields(caylus_report):
    r = caylus_report
    assert (r["ruleset"], r["variant"], r["players"], r["seats"], r["seed"]) == ("caylus", None, 4, 4, 5)
    assert (r["games"], r["requested"], r["interrupted"], r["errors"]) == (12, 12, False, [])
    assert r["agents"] == ["random"] * 4 and r["neutral_seats"] == [] and r["ruleset_hash"]
    wr = r["win_rate"]
    assert [e["seat"] for e in wr["by_seat"]] == [0, 1, 2, 3]
    # every game has at least one winner; a shared win counts for each winner
    total = sum(e["wins"] for e in wr["by_seat"])
    assert total >= 12 and (total > 12) == (wr["shared_wins"] > 0)
    for e in wr["by_seat"] + wr["by_agent"]:
        lo, hi = e["ci95"]
        assert 0 <= lo <= e["rate"] <= hi <= 1
    (agent,) = wr["by_agent"]
    assert agent["agent"] == "random" and agent["seat_games"] == 48
    assert agent["wins"] == sum(e["wins"] for e in wr["by_seat"])
    assert r["score"]["resource"] == "pp"
    for e in r["score"]["by_seat"]:
        assert e["min"] <= e["mean"] <= e["max"] and e["sd"] >= 0
        assert e["ci95"][0] <= e["mean"] <= e["ci95"][1]
        assert sum(c for _, c in e["distribution"]) == 12
    for key in ("rounds", "decisions"):
        e = r["length"][key]
        assert 0 < e["min"] <= e["mean"] <= e["max"]
    assert {"denier", "pp", "food", "wood", "stone", "cloth", "gold"} <= set(r["resources"])
    assert all(len(v["mean_by_seat"]) == 4 for v in r["resources"].values())
    used = r["buildings"]["used"]
    assert "castle" in used and "neutral_farm" in used  # a space and a building
    assert all(not k[-1].isdigit() for k in used)  # tiles counted under their kind
    assert r["buildings"]["built"], "random players build something in 12 games of Caylus"
    for e in r["buildings"]["built"].values():
        assert 1 <= e["games"] <= 12 and e["total"] >= e["games"]
    verbs = r["options"]["verbs"]
    assert "place" in verbs and "provost" in verbs
    choices = r["options"]["choices"]
    assert sum(e["total"] for e in choices.values()) == sum(e["total"] for e in verbs.values())
    assert sum(e["total"] for e in verbs.values()) == round(r["length"]["decisions"]["mean"] * 12)
    assert "timing" in r and set(r["timing"]) >= {"backend", "jobs", "wall_s", "games_per_s", "decisions_per_s"}


def test_ys_gems_characters_and_neutral_seat(capsys):
    code, r, _ = sim_json(capsys, "ys", "--games", "3", "--seed", "1")
    assert code == 0
    assert {"vp", "blue", "green", "yellow", "red", "black"} <= set(r["resources"])  # gems by colour
    assert "hand" in r["zones"] and len(r["zones"]["hand"]["mean_size_by_seat"]) == 4
    assert any(k.startswith("play:") for k in r["options"]["choices"])  # characters played
    assert any(k.startswith("gem:") for k in r["options"]["choices"])
    assert r["buildings"] == {"built": {}, "used": {}}  # Ys's place:N is an order card, not a building
    code, r, _ = sim_json(capsys, "ys", "--variant", "two_players", "--players", "2", "--games", "2")
    assert code == 0
    assert (r["players"], r["seats"], r["neutral_seats"]) == (2, 3, [2])
    assert r["agents"] == ["random", "random", "neutral"]
    # the neutral player scores but never wins: win rates over the deciding seats only
    assert [a["agent"] for a in r["win_rate"]["by_agent"]] == ["random"]
    assert [e["seat"] for e in r["win_rate"]["by_seat"]] == [0, 1]
    assert [e["seat"] for e in r["score"]["by_seat"]] == [0, 1]
    assert [(e["seat"], e["agent"]) for e in r["score"]["neutral"]] == [(2, "neutral")]
    assert sum(c for _, c in r["score"]["neutral"][0]["distribution"]) == 2


def test_text_report(capsys):
    code, out, err = run(capsys, "sim", "caylus1303", "--games", "3", "--seed", "2")
    assert code == 0 and err == ""  # no progress bar when stderr is not a terminal
    for text in ("caylus1303, 4 players (random, random, random, random), 3 games, seeds 2..4",
                 "Win rate by seat", "Score (pp) by seat", "Game length", "Final resources",
                 "Buildings per game", "Player zones at the end", "characters", "Options chosen"):
        assert text in out


def test_engine_error_in_a_game_is_reported_and_exits_1(capsys, monkeypatch):
    from provost.interpreter import agents

    class Broken(agents.RandomAgent):
        def choose(self, game, player):
            if self.seed == 8 and game.s.decisions > 10:
                raise RuntimeError("boom")
            return super().choose(game, player)

    monkeypatch.setitem(agents.AGENTS, "random", Broken)
    code, r, _ = sim_json(capsys, "caylus", "--games", "3", "--seed", "7")
    assert code == 1
    assert r["games"] == 2 and r["errors"] == [{"game": 1, "seed": 8, "decisions": 11, "error": "RuntimeError: boom"}]


# ------------------------------------------------------------------ compare
def test_compare_variant_on_the_same_seeds(capsys):
    code, r, _ = sim_json(capsys, "caylus", "--compare", "simplified_favor", "--games", "6", "--seed", "3")
    assert code == 0
    assert set(r) == {"ok", "base", "compare", "differences", "interrupted", "timing"} and r["ok"] is True
    assert (r["base"]["variant"], r["compare"]["variant"]) == (None, "simplified_favor")
    assert r["base"]["seed"] == r["compare"]["seed"] == 3 and r["base"]["games"] == r["compare"]["games"] == 6
    d = r["differences"]
    assert d["games"] == [6, 6] and len(d["by_seat"]) == 4
    for e in d["by_seat"]:
        for key in ("win_rate", "score"):
            x = e[key]
            assert x["ci95"][0] <= x["diff"] <= x["ci95"][1]
            assert x["diff"] == pytest.approx(x["compare"] - x["base"], abs=2e-4)
    for key in ("rounds", "decisions", "score_all_seats"):
        assert d[key]["ci95"][0] <= d[key]["diff"] <= d[key]["ci95"][1]
    base_alone = sim_json(capsys, "caylus", "--games", "6", "--seed", "3")[1]
    assert deterministic(base_alone) == r["base"]
    code, out, _ = run(capsys, "sim", "caylus", "--compare", "simplified_favor", "--games", "2")
    assert code == 0 and "Comparison: caylus -> caylus / simplified_favor" in out and "Mean score" in out


# ------------------------------------------------------------------ Ctrl-C
def test_interrupted_in_process_prints_a_partial_report(capsys, monkeypatch):
    monkeypatch.setenv(STOP_AFTER_ENV, "3")
    code, r, err = sim_json(capsys, "caylus", "--games", "50", "--seed", "1")
    assert code == 130
    assert (r["games"], r["requested"], r["interrupted"]) == (3, 50, True)
    assert r["ok"] is False and r["error"]["kind"] == "interrupted" and r["error"]["exit"] == 130
    assert "interrupted: 3 of 50 games finished" in err
    monkeypatch.delenv(STOP_AFTER_ENV)
    whole = sim_json(capsys, "caylus", "--games", "3", "--seed", "1")[1]
    assert {k: v for k, v in deterministic(whole).items() if k not in ("requested", "interrupted")} == \
        {k: v for k, v in deterministic(r).items() if k not in ("requested", "interrupted")}


def test_interrupted_pool_terminates_its_workers(capsys, monkeypatch):
    monkeypatch.setenv(STOP_AFTER_ENV, "1")
    code, out, err = run(capsys, "sim", "caylus", "--games", "200", "--jobs", "2", "--seed", "1")
    assert code == 130
    assert "INTERRUPTED" in out and "Win rate by seat" in out
    assert "sim interrupted" in err
    assert not multiprocessing.active_children()


def _sigint_default():
    # A suite started in the background by a non-interactive shell has SIGINT ignored, and a child
    # inherits that (Python then installs no KeyboardInterrupt handler): give the sim a terminal's.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT")
def test_ctrl_c_on_a_running_sim_subprocess():
    """SIGINT to the whole process group, as a terminal sends it: exit 130, a partial JSON report, no traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "provost.tools.cli", "sim", "caylus", "--games", "5000", "--jobs", "2",
                             "--format", "json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_sigint_default)
    time.sleep(4)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    r = json.loads(out)
    assert r["interrupted"] and r["games"] < 5000
    deadline = time.time() + 10
    while time.time() < deadline:  # the workers, the forkserver and the resource tracker all end
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        pytest.fail("processes of the interrupted sim are still running")


# ------------------------------------------------------------------ plot
def test_plot_writes_a_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "sim.png"
    code, _, err = run(capsys, "sim", "caylus", "--games", "3", "--compare", "simplified_favor", "--plot", str(path))
    assert code == 0, err
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_a_clear_usage_error(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    code, out, err = run(capsys, "sim", "caylus", "--games", "1", "--plot", str(tmp_path / "x.png"))
    assert code == 2 and '--plot needs matplotlib: pip install "provost[plot]" (or matplotlib)' in err and out == ""


@pytest.mark.parametrize("command", [["sim", "caylus"], ["sweep", "caylus", "--set", "start_money=4,5"]])
@pytest.mark.parametrize("name, message", [("x.txt", "matplotlib does not draw .txt"),
                                           ("plot", "no suffix to name the picture's format")])
def test_a_plot_format_matplotlib_cannot_draw_is_refused_before_the_games(capsys, tmp_path, command, name, message):
    pytest.importorskip("matplotlib")
    path = tmp_path / name
    code, out, err = run(capsys, *command, "--games", "1000", "--plot", str(path), "--format", "json")
    assert code == 2 and "provost: error: cannot write %s: %s" % (path, message) in err and ".png" in err
    assert json.loads(out)["error"]["kind"] == "usage" and not path.exists()


# ------------------------------------------------------------------ usage errors
@pytest.mark.parametrize("argv, message", [
    (["--agents", "grandmaster"], "unknown agent 'grandmaster'"),
    (["--agents", "human"], "'human' is for provost play (or provost serve): sim, sweep and rate"),
    (["--players", "9"], "caylus is for 3 to 5 players, not 9"),
    (["--agents", "random,random,random,random,random,random"], "6 agents given for 4 players"),
    (["--address", "auto"], "--address is for --backend ray"),
])
def test_usage_errors(capsys, argv, message):
    code, out, err = run(capsys, "sim", "caylus", "--games", "1", *argv)
    assert code == 2 and message in err and out == ""


def test_ray_backend_missing_is_a_clear_usage_error(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    code, out, err = run(capsys, "sim", "caylus", "--games", "1", "--backend", "ray")
    assert code == 2 and "pip install 'provost[ray]'" in err


def test_rules_errors_exit_1(capsys, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("this is not a rule file\n")
    code, _, err = run(capsys, "sim", str(bad), "--games", "1")
    assert code == 1 and "%s:1:1: error:" % bad in err


# ------------------------------------------------------------------ statistics
def test_wilson_interval_published_values():
    # Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263 -> 0.2553..0.3662; 0/10 -> 0..0.2775
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_newcombe_difference_published_values():
    # Newcombe (1998), Statistics in Medicine 17:873, table II, method 10 (score, no continuity correction)
    assert newcombe(48, 80, 56, 70) == pytest.approx((0.2, 0.0524, 0.3339), abs=1e-4)   # 56/70 - 48/80
    assert newcombe(3, 10, 9, 10) == pytest.approx((0.6, 0.1705, 0.8090), abs=1e-4)     # 9/10 - 3/10
    assert newcombe(0, 29, 5, 56) == pytest.approx((0.0893, -0.0381, 0.1926), abs=1e-4)  # 5/56 - 0/29


def test_moments_are_exact_and_order_free():
    a, b = Moments(), Moments()
    values = [3, 9, 4, 4, 12, 0, 7]
    for v in values:
        a.add(v)
    for v in reversed(values):
        b.add(v)
    assert (a.mean, a.sd, a.low, a.high) == (b.mean, b.sd, b.low, b.high) == pytest.approx(
        (39 / 7, 4.0356, 0, 12), abs=1e-4)


# ------------------------------------------------------------------ Ray
@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False,
                 runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(
                     p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}})
    yield ray
    if started:
        ray.shutdown()


def test_ray_backend_gives_the_local_report(capsys, local_ray):
    """One-CPU local Ray (Ray's old local_mode is gone since Ray 2.x), same report as the local backend."""
    argv = ["caylus", "--games", "6", "--seed", "9", "--compare", "simplified_favor"]
    code, local, _ = sim_json(capsys, *argv)
    assert code == 0
    code, on_ray, _ = sim_json(capsys, *argv, "--backend", "ray")
    assert code == 0
    assert on_ray["timing"]["backend"] == "ray"
    assert deterministic(on_ray) == deterministic(local)
    assert local_ray.is_initialized()  # an instance the caller started is left running


def test_a_terminated_pool_is_not_woken_at_exit():
    # concurrent.futures wakes every pool's manager thread at interpreter exit through a pipe; a
    # pool we terminated has closed it, and the write printed "Bad file descriptor" with a
    # traceback after a Ctrl-C, now and then: the pool must be forgotten there.
    import concurrent.futures
    import concurrent.futures.process as cfp

    from provost.tools.sim.runner import _terminate_pool

    executor = concurrent.futures.ProcessPoolExecutor(1)
    assert executor.submit(abs, -3).result(timeout=60) == 3
    thread = executor._executor_manager_thread
    assert thread in cfp._threads_wakeups
    _terminate_pool(executor)
    assert thread not in cfp._threads_wakeups


def test_a_pool_terminated_in_the_middle_of_a_result_lets_the_interpreter_exit():
    # A worker terminated while it wrote its result left half a message in the results pipe: the
    # pool's manager thread waited for the rest forever, and the interpreter, which waits for
    # that thread at exit, hung after the tests' summary.  The half message is written here.
    import concurrent.futures
    import struct

    from provost.tools.sim.runner import _terminate_pool

    executor = concurrent.futures.ProcessPoolExecutor(1)
    assert executor.submit(abs, -3).result(timeout=60) == 3
    thread = executor._executor_manager_thread
    writer = executor._result_queue._writer
    os.write(writer.fileno(), struct.pack("!i", 1000) + b"half")      # 1000 bytes announced, 4 sent
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not _reading(thread):
        time.sleep(0.05)
    _terminate_pool(executor)
    thread.join(10)
    assert not thread.is_alive()


def _reading(thread) -> bool:
    """Whether THREAD is blocked reading a message (its frame is in Connection._recv)."""
    frame = sys._current_frames().get(thread.ident)
    while frame is not None:
        if frame.f_code.co_name == "_recv":
            return True
        frame = frame.f_back
    return False


def test_ctrl_c_in_a_pool_is_raised_by_the_loop_not_inside_wait(monkeypatch):
    # A KeyboardInterrupt raised inside concurrent.futures.wait, while it took the futures' locks
    # one by one, left them held: the pool's manager thread blocked on one and the interpreter
    # never exited. While the pool works SIGINT only sets a flag; the loop raises KeyboardInterrupt
    # between waits, stops the pool, and gives SIGINT's handler back.
    import concurrent.futures
    import threading

    from provost.interpreter.gamelog import load_rules
    from provost.tools.sim.runner import LocalBackend, SimSpec, make_tasks

    real_wait = concurrent.futures.wait
    sent, cut = [], []

    def wait_with_a_ctrl_c(fs, timeout=None, return_when=concurrent.futures.ALL_COMPLETED):
        if not sent:
            sent.append(os.kill(os.getpid(), signal.SIGINT))
        try:
            time.sleep(0.05)        # the handler runs here, as it could amid the real wait's locking
        except KeyboardInterrupt:
            cut.append(True)
            raise
        return real_wait(fs, timeout, return_when)

    monkeypatch.setattr(concurrent.futures, "wait", wait_with_a_ctrl_c)
    specs = [SimSpec(load_rules("caylus"), 3, ("random",) * 3, 1)]
    got = []
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            LocalBackend(2).run(specs, make_tasks(specs, 200, 2), lambda k, records: got.extend(records))
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
    assert sent and not cut, "Ctrl-C was raised inside wait()"
    assert len(got) < 200
    assert not multiprocessing.active_children()
    for t in threading.enumerate():
        if type(t).__name__ == "_ExecutorManagerThread":
            t.join(10)
            assert not t.is_alive(), "the pool's manager thread still runs"


def test_seeds_past_2_64_are_a_usage_error(capsys):
    """Game i plays seed S+i, and each must be a seed ``provost play --seed`` takes."""
    from provost.tools.cli import main
    assert main(["sim", "caylus", "--games", "3", "--seed", str(2 ** 64 - 1)]) == 2
    assert "go past 2**64 - 1" in capsys.readouterr().err
