"""The generated rulebook covers every phase, space and building with the rule file's numbers."""
from __future__ import annotations

import pytest

from provost.dsl.loader import load_checked
from provost.dsl.primitives import FUNCTIONS
from provost.dsl.prose import Prose
from provost.tools.cli.commands_rulebook import build

GAMES = ["caylus", "caylus1303", "ys"]


@pytest.mark.parametrize("game", GAMES)
def test_every_building_cost_and_points_appear(game):
    text = build(game, None, "md")
    rs = load_checked(game)
    prose = Prose(rs.decls)
    for b in [d for d in rs.decls if d["kind"] == "building"]:
        title = b.get("title") or b["name"]
        cost = ", ".join(prose.expr(a) for a in b.get("cost", [])) or "-"
        rows = [line for line in text.splitlines() if line.startswith("| %s" % title)]
        assert any("| %s | %s |" % (cost, b.get("prestige", 0)) in row for row in rows), title


@pytest.mark.parametrize("game", GAMES)
def test_every_phase_appears_in_order(game):
    text = build(game, None, "md")
    rs = load_checked(game)
    phases = {d["name"]: d for d in rs.decls if d["kind"] == "phase"}
    last = -1
    for name in rs.game()["rounds"]:
        heading = "%s" % (phases[name].get("title") or name)
        at = text.find(heading, last + 1)
        assert at > last, heading
        last = at


def test_variant_rulebook_says_what_differs():
    text = build("caylus", "simplified_favor", "md")
    assert "## What this variant changes" in text and "3 × n prestige points" in text


def test_html_is_one_self_contained_page_with_contents():
    page = build("ys", None, "html")
    assert page.startswith("<!DOCTYPE html>") and "<nav>" in page and "<table>" in page
    assert "<script" not in page and "http" not in page.split("<body>")[1].split("</nav>")[0]
    assert page.count("<ul>") == page.count("</ul>")


def test_html_renders_in_headless_chromium(tmp_path):
    import shutil
    import subprocess
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("chromium is not installed (CI installs it with apt-get)")
    page = tmp_path / "ys.html"
    page.write_text(build("ys", None, "html"))
    shot = tmp_path / "ys.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--user-data-dir=%s" % (tmp_path / "profile"), "--window-size=1200,1600",
                    "--screenshot=%s" % shot, page.as_uri()], capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 10_000       # a real page was drawn


def test_a_library_function_says_what_it_is_given():
    # rank_by's words once left out its rows: "let ranking be the items of rows [item, key...]".
    prose = Prose([])
    ranked = {"e": "call", "fn": "rank_by", "args": [{"e": "name", "id": "standings"}]}
    assert "standings" in prose.expr(ranked)
    for name, sig in FUNCTIONS.items():     # every argument a function takes shows in its words
        assert all("{%d}" % i in sig.says for i in range(sig.min_args)), name
