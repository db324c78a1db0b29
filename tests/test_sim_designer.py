"""The designer figures of `provost sim` (seat advantage, options and winning, lead changes, final
margin, branching by round) and the `--report FILE.html` page."""
from __future__ import annotations

import json

import pytest

from cli_run import run_cli as run
from provost.interpreter.engine import Game
from provost.tools.sim.metrics import DesignerMetrics, GameWatcher
from provost.tools.sim.stats import rate_difference


def record(scores, winners, options=None, lead_changes=0, branching=None):
    return {"scores": scores, "winners": winners, "options_by_seat": options or {}, "lead_changes": lead_changes,
            "branching": branching or {}}


def test_seat_advantage_is_the_score_minus_the_other_seats_mean():
    m = DesignerMetrics(3, ["a", "b", "c"])
    m.add(record([10, 4, 7], [0]))       # seat 0: 10 - (4 + 7) / 2 = 4.5
    m.add(record([6, 6, 3], [0, 1]))     # seat 0: 6 - 4.5 = 1.5
    adv = m.to_dict([2, 1, 0], 2)["seat_advantage"]
    assert adv[0]["score_vs_others"]["mean"] == pytest.approx(3.0)
    assert adv[1]["score_vs_others"]["mean"] == pytest.approx((-4.5 + 1.5) / 2)
    assert adv[2]["score_vs_others"]["mean"] == pytest.approx((0 - 3) / 2)
    assert adv[0]["win_rate_vs_fair"]["diff"] == pytest.approx(1 - 1 / 3, abs=1e-4)
    # The three seats' advantages cancel out game by game.
    assert sum(e["score_vs_others"]["mean"] for e in adv) == pytest.approx(0)


def test_options_and_winning_compares_winners_seat_games_with_the_others():
    m = DesignerMetrics(2, ["a", "b"])
    for _ in range(30):
        m.add(record([9, 5], [0], {"build:mine": [1, 0], "pass": [3, 4]}))
    for _ in range(10):
        m.add(record([5, 9], [1], {"build:mine": [0, 0], "pass": [2, 2]}))
    rows = {e["option"]: e for e in m.to_dict([30, 10], 40)["options_and_winning"]["options"]}
    mine = rows["build:mine"]
    assert (mine["winners"], mine["others"]) == (0.75, 0.0)
    assert mine["diff"] == rate_difference(0, 40, 30, 40)["diff"] and mine["significant"]
    assert rows["pass"]["winners"] == rows["pass"]["others"] == 1.0 and not rows["pass"]["significant"]
    assert mine["per_winner"] == 0.75


def test_final_margin_lead_changes_and_branching():
    m = DesignerMetrics(2, ["a", "b"])
    m.add(record([9, 5], [0], lead_changes=2, branching={"1": [3, 12, 50, 2, 6], "2": [1, 7, 49, 7, 7]}))
    m.add(record([4, 4], [0, 1], lead_changes=0, branching={"1": [2, 4, 8, 2, 2]}))
    d = m.to_dict([2, 1], 2)
    assert d["final_margin"]["mean"] == 2 and (d["final_margin"]["min"], d["final_margin"]["max"]) == (0, 4)
    assert d["lead_changes"]["mean"] == 1
    by_round = {e["round"]: e for e in d["branching"]["by_round"]}
    assert by_round[1]["decisions"] == 5 and by_round[1]["mean"] == pytest.approx(16 / 5, abs=1e-4)
    assert (by_round[1]["min"], by_round[1]["max"]) == (2, 6)
    assert d["branching"]["all"]["decisions"] == 6 and d["branching"]["all"]["mean"] == pytest.approx(23 / 6, abs=1e-4)


def test_the_watcher_counts_a_real_game():
    from provost.interpreter.agents import make_agent, play_game
    game = Game.new("caylus", players=3, seed=4)
    watcher = GameWatcher(game)
    offered = []

    def before(g, player):
        offered.append(len(g.legal_options()))
        watcher.before(g, player)

    play_game(game, [make_agent("random", 4, s) for s in range(3)], before=before,
              after=lambda g, p, o: watcher.after(g, p, o.split(":")[0]))
    rec = watcher.record()
    rows = rec["branching"].values()
    assert sum(r[0] for r in rows) == len(offered) == game.s.decisions
    assert sum(r[1] for r in rows) == sum(offered)
    assert sum(sum(c) for c in rec["options_by_seat"].values()) == game.s.decisions
    assert 0 <= rec["lead_changes"] < game.s.decisions


def test_sim_report_has_the_designer_figures(capsys):
    code, out, _ = run(capsys, "sim", "caylus", "--games", "8", "--seed", "3", "--format", "json")
    assert code == 0
    d = json.loads(out)["designer"]
    assert [e["seat"] for e in d["seat_advantage"]] == [0, 1, 2, 3]
    assert d["branching"]["all"]["decisions"] == json.loads(out)["length"]["decisions"]["mean"] * 8
    assert d["options_and_winning"]["winner_seat_games"] + d["options_and_winning"]["other_seat_games"] == 32
    code, text, _ = run(capsys, "sim", "caylus", "--games", "8", "--seed", "3")
    assert "Seat advantage" in text and "Branching factor" in text and "Lead changes per game" in text


def test_report_page(capsys, tmp_path):
    html5lib = pytest.importorskip("html5lib")
    page = tmp_path / "study.html"
    code, text, _ = run(capsys, "sim", "caylus", "--games", "10", "--compare", "simplified_favor", "--report", str(page),
                        "--question", "Is <b>simplified favor</b> balanced?")
    assert code == 0 and "report: %s" % page in text
    body = page.read_text()
    html5lib.HTMLParser(strict=True).parse(body)
    for heading in ("The question", "Settings", "What is significant", "Plots", "Tables"):
        assert ">%s</h2>" % heading in body
    assert "Is &lt;b&gt;simplified favor&lt;/b&gt; balanced?" in body and "<b>" not in body
    assert "Differences (compare - base), paired by seed over 10 seeds" in body
    try:
        import matplotlib  # noqa: F401
        assert body.count("data:image/png;base64,") == 2
    except ImportError:
        assert "No plots" in body


def test_a_hostile_title_cannot_inject_markup(capsys, tmp_path):
    variant = tmp_path / "evil.rules"
    variant.write_text('variant evil "<script>alert(1)</script> **x** | y" extends caylus:\n'
                       '    description "A title that tries markup."\n')
    page = tmp_path / "study.html"
    code, _, err = run(capsys, "sim", str(variant), "--games", "2", "--report", str(page))
    assert code == 0, err
    body = page.read_text()
    assert "<script>" not in body


def test_report_to_an_unwritable_place_fails_before_playing(capsys, tmp_path):
    code, _, err = run(capsys, "sim", "caylus", "--games", "1000000", "--report", str(tmp_path / "no" / "r.html"))
    assert code == 2 and "cannot write" in err


def test_sweep_report_page(capsys, tmp_path):
    html5lib = pytest.importorskip("html5lib")
    page = tmp_path / "sweep.html"
    code, text, err = run(capsys, "sweep", "caylus", "--set", "start_money=5,9", "--games", "6", "--report", str(page))
    assert code == 0, err
    assert "report: %s" % page in text
    body = page.read_text()
    html5lib.HTMLParser(strict=True).parse(body)
    assert "What changes in caylus when start_money is 5 or 9?" in body
    assert "start_money=9 vs start_money=5" in body and "seat 0 score" in body
    try:
        import matplotlib  # noqa: F401
        assert body.count("data:image/png;base64,") == 1
    except ImportError:
        assert "No plots" in body
