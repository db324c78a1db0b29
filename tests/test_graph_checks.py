"""Graph checks (dsl/graph/, codes G5xx-G7xx): the corpus, the Caylus cases, shipped rulesets.

The corpus is tests/graph_corpus/: one rule file per broken structural rule, and
tests/graph_corpus/expected.txt with one line per expected diagnostic (`FILE CODE LINE:COL`) or
`FILE clean`.  Adding a case is adding a file and a line.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

import provost.dsl.checks  # noqa: F401 - registers every code
from provost.dsl.diagnostics import CODES
from provost.dsl.loader import check_file

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).parent / "graph_corpus"
RULESETS = ROOT / "rulesets"
CAYLUS = RULESETS / "caylus.rules"


def load_expected() -> dict[str, set]:
    expected: dict[str, set] = defaultdict(set)
    for n, raw in enumerate((CORPUS / "expected.txt").read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) == 2 and parts[1] == "clean":
            expected.setdefault(parts[0], set())
            continue
        m = re.fullmatch(r"(\S+) ([A-Z]\d{3}) (\d+):(\d+)", line)
        assert m, "expected.txt line %d: %r" % (n, raw)
        expected[m[1]].add((m[2], int(m[3]), int(m[4])))
    return dict(expected)


EXPECTED = load_expected()


def found(path: Path) -> set:
    return {(d.code, d.line, d.col) for d in check_file(str(path))}


# ------------------------------------------------------------------ the corpus
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_case(name):
    assert found(CORPUS / name) == EXPECTED[name]


def test_every_corpus_file_is_listed():
    files = {p.name for p in CORPUS.glob("*.rules")}
    assert files == set(EXPECTED), "list every tests/graph_corpus/*.rules file in expected.txt"


def test_corpus_size():
    broken = [n for n, e in EXPECTED.items() if e]
    assert len(broken) >= 25


@pytest.mark.parametrize("code", sorted(c for c in CODES if c.startswith("G")))
def test_every_graph_code_has_a_case(code):
    assert any(code == c for e in EXPECTED.values() for c, _, _ in e), "add a tests/graph_corpus case for " + code


def test_each_broken_case_breaks_one_rule():
    for name, e in EXPECTED.items():
        assert len({c for c, _, _ in e}) <= 1, name
        if e:
            assert name.lower().startswith(next(iter(e))[0].lower()), "name %s after its code" % name


# ------------------------------------------------------------------ Caylus
def caylus_copy(tmp_path, *changes) -> Path:
    text = CAYLUS.read_text()
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "caylus_copy.rules"
    path.write_text(text)
    return path


def test_caylus_joust_field_note_is_the_rulebooks_hint():
    diags = [d for d in check_file(str(CAYLUS)) if d.code == "G602"]
    assert len(diags) == 1
    d = diags[0]
    lines = CAYLUS.read_text().splitlines()
    assert lines[d.line - 1].strip() == "pay 1 denier, 1 cloth"
    assert lines[d.line - 1][d.col - 1:].startswith("1 cloth")
    assert d.severity == "note"
    # The rulebook: the denier may come from the trading post; the cloth must be in the reserve.
    assert "'joust_field' pays cloth" in d.message and "phase 'specials'" in d.message
    assert "stock from earlier turns" in d.message and "denier can come from 'trading_post'" in d.message


def test_caylus_gate_after_trading_post_is_an_error(tmp_path):
    line = "        activate gate, trading_post, merchants_guild, joust_field, stables"
    path = caylus_copy(tmp_path, (line, "        activate trading_post, gate, merchants_guild, joust_field, stables"))
    errors = [d for d in check_file(str(path)) if d.severity == "error"]
    assert [d.code for d in errors] == ["G601"]
    d = errors[0]
    text = path.read_text().splitlines()
    assert text[d.line - 1][d.col - 1:].startswith("gate,")
    assert "'trading_post'" in d.message and "activate 'gate' before 'trading_post'" in d.message


def test_caylus_gate_first_is_fine_and_so_is_gate_before_every_target():
    assert not [d for d in check_file(str(CAYLUS)) if d.severity == "error"]


def test_two_trigger_cycle_is_printed(tmp_path):
    triggers = ("# ------------------------------------------------------------------ special buildings (before the bridge)",
                "trigger ping on worker_placed:\n"
                "    if target == castle:\n"
                "        build_tile wood\n"
                "trigger pong on tile_built:\n"
                "    place_worker castle\n"
                "# ------------------------------------------------------------------ special buildings (before the bridge)")
    path = caylus_copy(tmp_path, triggers)
    cycles = [d for d in check_file(str(path)) if d.code == "G603"]
    assert len(cycles) == 1
    d = cycles[0]
    assert d.severity == "error"
    assert "[cycle: ping -> pong -> ping]" in d.message
    assert "'ping' (on worker_placed) builds a tile" in d.message and "'pong' (on tile_built) places a worker" in d.message
    assert path.read_text().splitlines()[d.line - 1].startswith("trigger ping")


def test_a_trigger_cycle_through_an_effect_and_a_favor(tmp_path):
    # pong -> favor -> favor table -> build_tile -> tile_built: found through effects and tables.
    path = caylus_copy(tmp_path, ("trigger owner_prestige on worker_placed:",
                                  "trigger pong on tile_built:\n    favor 1\ntrigger owner_prestige on worker_placed:"))
    cycles = [d for d in check_file(str(path)) if d.code == "G603"]
    assert len(cycles) == 1 and "[cycle: pong -> pong]" in cycles[0].message


# ------------------------------------------------------------------ shipped rulesets
SHIPPED = sorted(RULESETS.rglob("*.rules"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(RULESETS)))
def test_shipped_ruleset_has_no_errors_and_explains_its_findings(path):
    diags = check_file(str(path))
    assert not [d for d in diags if d.severity == "error"], [d.format_text() for d in diags]
    for d in diags:
        lines = Path(d.path).read_text().splitlines()
        above = lines[max(0, d.line - 9):d.line]
        assert any(d.code in line.split("#", 1)[-1] for line in above if "#" in line), \
            "explain %s in a comment above %s:%d" % (d.code, d.path, d.line)


def test_shipped_findings_are_the_known_ones():
    found = sorted((Path(d.path).name, d.code) for p in SHIPPED for d in check_file(str(p)))
    assert found == [("caylus.rules", "G602"), ("caylus.rules", "G703"),
                     ("caylus1303.rules", "G510"), ("caylus1303.rules", "G602")]


# ------------------------------------------------------------------ cost
def test_checking_caylus_does_not_import_networkx():
    code = ("import sys\nfrom provost.dsl.loader import check_file\ncheck_file(%r)\n"
            "print('networkx' in sys.modules)\n" % str(CAYLUS))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_cycle_is_found_with_networkx():
    code = ("import sys\nfrom provost.dsl.loader import check_file\n"
            "d = check_file(%r)\nprint(d[0].code, 'networkx' in sys.modules)\n" % str(CORPUS / "g603_two_triggers.rules"))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "G603 True"


def test_generated_rulesets_are_free_of_errors(tmp_path):
    from provost.tools.dev.bench_graph import generate
    for n in (10, 100):
        path = tmp_path / ("bench_%d.rules" % n)
        path.write_text(generate(n))
        diags = check_file(str(path))
        assert not [d for d in diags if d.severity == "error"], [d.format_text() for d in diags[:5]]


def test_check_time_grows_linearly(tmp_path, monkeypatch):
    """A guard against quadratic checks, in CPU time (other processes may share the machine).

    Both sizes are parsed and checked (no cache: a cached result would make the small one a file
    read, and the ratio meaningless).  The figure itself (1,000 buildings under 2 s) is measured
    by tools/bench_graph.py, not here.
    """
    import time

    from provost.tools.dev.bench_graph import generate
    check_file(str(CAYLUS))              # the grammar and modules are loaded
    monkeypatch.setenv("PROVOST_NO_CACHE", "1")
    cost = {}
    for n in (100, 1000):
        path = tmp_path / ("bench_%d.rules" % n)
        path.write_text(generate(n))
        best = float("inf")
        for _ in range(2):
            start = time.process_time()
            diags = check_file(str(path))
            best = min(best, time.process_time() - start)
        assert not [d for d in diags if d.severity == "error"]
        cost[n] = best
    assert cost[1000] < 20 * cost[100] + 0.5, cost
    assert cost[100] > 0.001, cost      # (checked, not read back from a cache)


def test_a_resource_from_an_earlier_phase_is_named(tmp_path):
    # The shop on the road pays coin, which only the trading post (phase specials) produces.
    text = (CORPUS / "clean.rules").read_text()
    text = text.replace("                pay 1 wood\n", "                pay 1 coin\n", 1)
    text = text.replace("                pay 1 coin\n                place_worker t\n", "                place_worker t\n", 1)
    path = tmp_path / "earlier.rules"
    path.write_text(text)
    notes = [d for d in check_file(str(path)) if d.code == "G602"]
    assert len(notes) == 1
    assert "'shop' (on the road) pays coin" in notes[0].message
    assert "in stock when the phase starts (from phase 'specials' or earlier turns)" in notes[0].message
