"""Mutation fuzzing of every shipped rule file (DESIGN.md section 7, issue 3).

Whatever the mutation -- deleted, swapped or duplicated lines, renamed identifiers, inserted
tokens, absurd numbers, re-indented lines, truncation, binary blobs, invalid UTF-8, deep nesting,
a 10 MB file -- `provost.dsl.loader.check_file` must return Diagnostics positioned at line >= 1 and
col >= 1 within the time budget, without raising, and `provost check` must exit 0 or 1.

Each mutant is written into a copy of the rulesets folder, so a mutated variant still finds its
base (and a mutated base is checked through a variant that extends it).  Hypothesis is seeded
(`derandomize=True`) and the example counts are modest: the file runs in well under a minute.
"""
from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provost.dsl.diagnostics import Diagnostic
from provost.dsl.loader import check_file
from provost.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulesets").glob("*.rules"))
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in SHIPPED}
NAMES = sorted(TEXTS)
BUDGET = 2.0        # CPU seconds per check (CPU time: other processes on a busy machine do not count)
WALL_BUDGET = 10.0  # wall-clock seconds per check, against hangs that burn no CPU

FUZZ = settings(max_examples=20, derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
NUMBER = re.compile(r"\b\d+\b")
TOKENS = [":", "(", ")", "[", "]", "{", "}", ",", "..", "=", "+=", "-=", "==", "+", "-", "*", "//", "%", "|",
          ".", ";", "if", "else", "elif", "not", "and", "or", "in", "of", "for", "each", "option", "choose",
          "either", "let", "set", "repeat", "while", "turns", "until", "all", "passed", "defer", "vacant",
          "step", "as", "break", "variant", "extends", "replace", "remove", "when", "where", "\"str\"",
          "\"", "0", "7", "-1", "\t", "    ", "\n", "\n    ", "\\\n", "#", "$", "@", "\u00e9", "\u2028",
          "game", "building", "resource", "phase", "effect", "table", "counter", "none", "player"]


# ------------------------------------------------------------------ running one mutant
@pytest.fixture
def workdir(tmp_path):
    for p in SHIPPED:
        shutil.copy(p, tmp_path / p.name)
    return tmp_path


def check_mutant(workdir: Path, name: str, content: str | bytes, also_cli: bool = True) -> list[Diagnostic]:
    path = workdir / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", errors="surrogateescape")
    with budget():
        diags = check_file(str(path))
    for d in diags:
        assert isinstance(d, Diagnostic)
        assert d.line >= 1 and d.col >= 1, d
        assert d.code and d.message and d.severity in ("error", "warning", "note"), d
    if also_cli:
        assert main(["check", str(path)]) in (0, 1)
    return diags


class budget:
    """``with budget(): ...`` asserts the block took under BUDGET CPU and WALL_BUDGET wall seconds."""

    def __enter__(self):
        self.cpu, self.wall = time.process_time(), time.perf_counter()

    def __exit__(self, exc_type, *exc):
        if exc_type is None:
            cpu, wall = time.process_time() - self.cpu, time.perf_counter() - self.wall
            assert cpu < BUDGET and wall < WALL_BUDGET, "check took %.2f s CPU, %.2f s wall" % (cpu, wall)
        return False


def variants_of(name: str) -> list[str]:
    base = name[:-len(".rules")]
    return [n for n in NAMES if n.startswith(base + ".")]


# ------------------------------------------------------------------ mutation operators
def _lines(data, name):
    return TEXTS[name].splitlines(keepends=True)


@st.composite
def deleted_lines(draw, name):
    lines = _lines(draw, name)
    for _ in range(draw(st.integers(1, 3))):
        if lines:
            del lines[draw(st.integers(0, len(lines) - 1))]
    return "".join(lines)


@st.composite
def swapped_lines(draw, name):
    lines = _lines(draw, name)
    i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[i], lines[j] = lines[j], lines[i]
    if draw(st.booleans()):
        k = draw(st.integers(0, len(lines) - 1))
        lines.insert(k, lines[draw(st.integers(0, len(lines) - 1))])   # a duplicated line
    return "".join(lines)


@st.composite
def renamed_identifiers(draw, name):
    text = TEXTS[name]
    idents = sorted(set(IDENT.findall(text)))
    old = draw(st.sampled_from(idents))
    new = draw(st.one_of(st.sampled_from(idents + ["x", "player", "none", "gain", "count", "if", "_"]),
                         st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8),
                         st.just(old[:-1] or "x"), st.just(old + old[-1])))
    if draw(st.booleans()):
        return re.sub(r"\b%s\b" % re.escape(old), new, text)
    matches = [m.start() for m in re.finditer(r"\b%s\b" % re.escape(old), text)]
    at = draw(st.sampled_from(matches))
    return text[:at] + new + text[at + len(old):]


@st.composite
def inserted_tokens(draw, name):
    text = TEXTS[name]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        tok = draw(st.one_of(st.sampled_from(TOKENS), st.text(min_size=1, max_size=3)))
        sep = draw(st.sampled_from(["", " "]))
        text = text[:at] + sep + tok + sep + text[at:]
    return text


@st.composite
def absurd_numbers(draw, name):
    text = TEXTS[name]
    spots = [m.span() for m in NUMBER.finditer(text)]
    for _ in range(draw(st.integers(1, 3))):
        a, b = draw(st.sampled_from(spots))
        new = draw(st.one_of(st.sampled_from(["0", "-1", "-999999999", "1000001", "2147483648", "9" * 19,
                                              "9" * 400, "0000", "1" + "0" * 4000]),
                             st.integers(-10**30, 10**30).map(str)))
        text = text[:a] + new + text[b:]
        spots = [m.span() for m in NUMBER.finditer(text)]
    return text


@st.composite
def reindented(draw, name):
    lines = _lines(draw, name)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        indent = draw(st.sampled_from(["", " ", "  ", "\t", "        ", " \t", "                 "]))
        lines[i] = indent + lines[i].lstrip(" \t")
    return "".join(lines)


@st.composite
def truncated(draw, name):
    text = TEXTS[name]
    return text[:draw(st.integers(0, len(text)))]


@st.composite
def byte_blobs(draw, name):
    data = TEXTS[name].encode("utf-8")
    at = draw(st.integers(0, len(data)))
    blob = draw(st.one_of(st.binary(min_size=1, max_size=64),
                          st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf", b"\r",
                                           b"\r\n", b"\x0c", b"\x1b[31m", b"\xe2\x80\xa8"])))
    return data[:at] + blob + data[at:]


MUTATIONS = {
    "deleted_lines": deleted_lines, "swapped_lines": swapped_lines, "renamed_identifiers": renamed_identifiers,
    "inserted_tokens": inserted_tokens, "absurd_numbers": absurd_numbers, "reindented": reindented,
    "truncated": truncated, "byte_blobs": byte_blobs,
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@FUZZ
@given(data=st.data())
def test_mutants_never_crash(mutation, workdir, data):
    name = data.draw(st.sampled_from(NAMES), label="file")
    mutant = data.draw(MUTATIONS[mutation](name), label="mutant")
    check_mutant(workdir, name, mutant, also_cli=data.draw(st.booleans(), label="cli"))
    # A mutated base is also checked through a variant that extends it.
    for variant in variants_of(name)[:1]:
        with budget():
            diags = check_file(str(workdir / variant))
        assert all(d.line >= 1 and d.col >= 1 for d in diags), diags


# ------------------------------------------------------------------ hostile inputs, deterministic
def _inside_first_let(text: str, expr: str) -> str:
    """The file with one more declaration holding `expr`."""
    return text + "\nlet fuzz_value = " + expr + "\n"


HOSTILE = {
    "5000 nested parentheses": lambda t: _inside_first_let(t, "(" * 5000 + "1" + ")" * 5000),
    "5000 nested lists": lambda t: _inside_first_let(t, "[" * 5000 + "]" * 5000),
    "5000 nots": lambda t: _inside_first_let(t, "not " * 5000 + "1"),
    "5000 minus signs": lambda t: _inside_first_let(t, "- " * 5000 + "1"),
    "5000 additions": lambda t: _inside_first_let(t, " + ".join(["1"] * 5000)),
    "1000 conditionals": lambda t: _inside_first_let(t, "1 if yes else " * 1000 + "0"),
    "5000 attributes": lambda t: _inside_first_let(t, "x" + ".owner" * 5000),
    "5000 indexes": lambda t: _inside_first_let(t, "x" + "[0]" * 5000),
    "200-level indentation": lambda t: t + "\nphase fuzz:\n" + "".join(
        " " * (i + 1) + "if yes:\n" for i in range(200)) + " " * 201 + "nothing\n",
    "200 tab-indented levels": lambda t: t + "\nphase fuzz:\n" + "".join(
        "\t" * (i + 1) + "if yes:\n" for i in range(200)) + "\t" * 201 + "nothing\n",
    "a 4000-digit number": lambda t: _inside_first_let(t, "9" * 4000),
    "a long line": lambda t: _inside_first_let(t, "[" + ", ".join(["1"] * 2000) + "]"),
    "a long string": lambda t: _inside_first_let(t, '"' + "x" * 500_000 + '"'),
    "90,000 tokens of lets": lambda t: t + "".join("\nlet fuzz_%d = %s\n" % (i, " + ".join(["1"] * 50))
                                                   for i in range(900)),
    "an unterminated block at the end": lambda t: t + "\nphase fuzz:\n    if yes:\n",
    "CRLF line ends": lambda t: t.replace("\n", "\r\n"),
    "CR line ends": lambda t: t.replace("\n", "\r"),
    "a byte order mark": lambda t: "\ufeff" + t,
    "form feeds": lambda t: t.replace("\n\n", "\n\f\n"),
    "only comments": lambda t: "".join("# " + line + "\n" for line in t.splitlines()),
    "the file twice": lambda t: t + "\n" + t,
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_text(case, workdir):
    name = "caylus.rules" if case != "the file twice" else NAMES[-1]
    check_mutant(workdir, name, HOSTILE[case](TEXTS[name]))


HOSTILE_BYTES = {
    "a 10 MB file": lambda b: b + b"# padding\n" * 1_000_000,
    "binary garbage": lambda b: bytes(range(256)) * 64,
    "random bytes": lambda b: __import__("random").Random(3).randbytes(50_000),
    "invalid UTF-8 in a name": lambda b: b.replace(b"game caylus", b"game cayl\xffus", 1),
    "a lone surrogate": lambda b: b.replace(b"caylus", b"cay\xed\xa0\x80lus", 1),
    "Latin-1 text": lambda b: b.replace(b"deniers", b"deni\xe8rs"),
    "NUL in a comment": lambda b: b.replace(b"# ", b"#\x00 ", 1),
    "a UTF-16 file": lambda b: b.decode("utf-8").encode("utf-16"),
    "an empty file": lambda b: b"",
    "one newline": lambda b: b"\n",
    "just under the size limit": lambda b: b + b"#" * (999_000 - len(b)) + b"\n",
}


@pytest.mark.parametrize("case", sorted(HOSTILE_BYTES))
def test_hostile_bytes(case, workdir):
    data = HOSTILE_BYTES[case]((ROOT / "rulesets" / "caylus.rules").read_bytes())
    diags = check_mutant(workdir, "caylus.rules", data)
    if case in ("a 10 MB file", "binary garbage", "random bytes", "a UTF-16 file", "an empty file", "one newline"):
        assert diags and all(d.code.startswith("P") for d in diags)


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_hostile_ir_documents(suffix, workdir):
    deep = "[" * 100_000 + "]" * 100_000
    for content in (deep, "{" * 3000, '{"provost_ir": 1, "decls": ' + deep + "}", "null", "[]", '"x"',
                    "a: &a [*a]" if suffix == ".yaml" else '{"a": NaN}', "1" * 5000):
        check_mutant(workdir, "fuzz" + suffix, content)


def test_number_longer_than_python_int_limit(workdir):
    # Python's int() refuses more than 4300 digits; the parser stops long numbers first (P105).
    diags = check_mutant(workdir, "caylus.rules", _inside_first_let(TEXTS["caylus.rules"], "9" * 5000))
    assert [d.code for d in diags] == ["P105"]


# ------------------------------------------------------------------ IR-level fuzzing
def _nodes(node, out, parent=None, key=None):
    if isinstance(node, dict):
        tag = "e" if "e" in node else "s" if "s" in node else None
        if tag and parent is not None:
            out.setdefault(tag, []).append((parent, key))
        for k, v in node.items():
            if isinstance(v, str) and k in ("id", "name", "what", "fn", "var", "label", "category", "by", "event"):
                out.setdefault("ident", []).append((node, k))
            _nodes(v, out, node, k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _nodes(v, out, node, i)


_IRS: dict = {}


@FUZZ
@given(data=st.data())
def test_checks_never_crash_on_schema_valid_irs(data):
    """Swap expressions, statements and names around a shipped IR (as a hand-written YAML IR
    could): whatever stays schema-valid must check without an exception and with positions."""
    import copy

    from provost.dsl.checks import run_checks
    from provost.dsl.loader import Ruleset, parse_file
    from provost.dsl.schema import is_valid, too_deep

    name = data.draw(st.sampled_from([n for n in NAMES if n.count(".") == 1]), label="file")
    if name not in _IRS:
        _IRS[name] = parse_file(str(ROOT / "rulesets" / name))[0]
    ir = copy.deepcopy(_IRS[name])
    for _ in range(data.draw(st.integers(1, 6), label="mutations")):
        found: dict = {}
        _nodes(ir, found)
        kind = data.draw(st.sampled_from(sorted(found)), label="kind")
        parent, key = data.draw(st.sampled_from(found[kind]))
        if kind == "ident":
            idents = sorted({p[k] for p, k in found["ident"]})
            parent[key] = data.draw(st.one_of(st.sampled_from(idents), st.sampled_from(["player", "none", "x", "_"])))
        else:
            donor_parent, donor_key = data.draw(st.sampled_from(found[kind]))
            parent[key] = copy.deepcopy(donor_parent[donor_key])
    if too_deep(ir) is not None or not is_valid(ir):
        return
    rs = Ruleset(name, None, ir["decls"], [name] * len(ir["decls"]), [name])
    with budget():
        diags = run_checks(rs)
    assert all(d.line >= 1 and d.col >= 1 and d.code for d in diags), diags
