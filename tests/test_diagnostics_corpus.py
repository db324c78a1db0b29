"""The expected-diagnostics corpus: tests/diagnostics/*.cases.

Each .cases file holds broken rule files ("cases") separated by lines that are exactly `---`.
A case states what `provost check` must report with comment lines (the rule language and YAML
both read them as comments, so they stay in the file and count as lines):

    ### CODE LINE:COL              a diagnostic in the case file (lines counted from the case's
                                  first line, the ### lines included)
    ### CODE FILE LINE:COL         a diagnostic in another file of the case
    ### file: NAME                 the lines after it form another file of the case (NAME), for
                                  variants and their bases; the first file is the one checked
    ### name: NAME.yaml            the checked file's name (the suffix chooses rules or IR);
                                  default case.rules
    ### bytes: HEX                 the checked file holds exactly these bytes instead
    ### generate: N lines|bytes    the checked file is N comment lines, or N bytes of comments
    ### absent                     the checked file is not created
    ### clean                      the case must check clean (no other ### CODE lines)
    ### xfail: REASON              a known bug elsewhere: the case states the right diagnostics
                                  and is expected to fail until the bug is fixed (strict)

The diagnostics reported must be exactly the ones listed (code, file, line, column).  Every case
directory also holds tests/diagnostics/base.rules, a small clean game that variant cases extend
(`extends base`).  Adding a test is adding a case to a .cases file.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import provost.dsl.checks  # noqa: F401 - registers the N/T/R/A codes
import provost.dsl.schema  # noqa: F401 - registers the S codes
from provost.dsl.diagnostics import CODES
from provost.dsl.loader import check_file

CORPUS = Path(__file__).parent / "diagnostics"
BASE = CORPUS / "base.rules"

_EXPECT = re.compile(r"^###\s+([A-Z]\d{3})\s+(?:(\S+)\s+)?(\d+):(\d+)\s*$")
_DIRECTIVE = re.compile(r"^###\s+(file|name|bytes|generate|xfail):\s*(.*?)\s*$|^###\s+(absent|clean)\s*$")

# The code families `provost check` reports: reading and parsing (P0xx, P1xx), declarations
# (D0xx), schema (S0xx), loader and variants (L0xx), names (N1xx), types (T2xx), ranges (R3xx),
# calls (A4xx), cycles (C8xx).  Every registered code in them must have a case, except those `check_file`
# cannot produce (with the reason).
FAMILIES = re.compile(r"^(P0|P1|D0|S0|L0|N1|T2|R3|A4|C8)\d\d$")
UNREACHABLE = {
    "L001": "unknown ruleset or variant *name*: only `play`/`export` take names (tests/test_cli_check.py)",
    "P006": "a folder with no rule file: `check` reports it before any file is read (tests/test_cli_failures.py)",
    "L007": "variants composed on the command line (--variant A --variant B) only (tests/test_compose.py)",
    "L008": "two variants both given for one player count: found by --players only (tests/test_compose.py)",
}


@dataclass
class Case:
    source: str            # "file.cases:LINE"
    files: dict = field(default_factory=dict)      # name -> text (first one is checked)
    expected: set = field(default_factory=set)     # (code, file, line, col)
    content: bytes | None = None
    absent: bool = False
    clean: bool = False
    xfail: str | None = None
    checked: str = "case.rules"

    @property
    def id(self) -> str:
        codes = sorted({e[0] for e in self.expected}) or ["clean"]
        return "%s-%s" % (self.source, "+".join(codes))


def _parse_case(chunk: list[str], source: str) -> Case:
    case = Case(source)
    name, lines = None, []

    def flush():
        if name is not None:
            case.files[name] = "".join(lines)

    name = case.checked
    for raw in chunk:
        line = raw.rstrip("\n")
        m = _DIRECTIVE.match(line)
        if m and m.group(1) == "file":
            flush()
            name, lines = m.group(2), []
            continue
        if m and m.group(1) == "name":
            if name != case.checked:
                raise ValueError("%s: '### name:' belongs to the case's first file" % source)
            case.checked = name = m.group(2)
        elif m and m.group(1) == "bytes":
            case.content = bytes.fromhex(m.group(2))
        elif m and m.group(1) == "generate":
            # A game followed by comment lines: N lines in all, or at least N bytes.
            n, unit = int(m.group(2).split()[0]), m.group(2).split()[1]
            head = b"game g:\n    players 2..4\n    score pp\nresource pp\n"
            case.content = head + (b"# line\n" * (n - head.count(b"\n")) if unit == "lines" else
                                   (b"# " + b"x" * 77 + b"\n") * (n // 80 + 1))
        elif m and m.group(1) == "xfail":
            case.xfail = m.group(2)
        elif m and m.group(3) == "absent":
            case.absent = True
        elif m and m.group(3) == "clean":
            case.clean = True
        lines.append(raw)
        e = _EXPECT.match(line)
        if e:
            case.expected.add((e.group(1), e.group(2) or case.checked, int(e.group(3)), int(e.group(4))))
    flush()
    return case


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CORPUS.glob("*.cases")):
        chunk, start = [], 1
        with open(path, encoding="utf-8") as fh:
            numbered = list(enumerate(fh, 1))
        for n, raw in numbered + [(len(numbered) + 1, "---\n")]:
            if raw.rstrip("\r\n") == "---":
                if any(l.strip() for l in chunk):
                    cases.append(_parse_case(chunk, "%s:%d" % (path.name, start)))
                chunk, start = [], n + 1
            else:
                chunk.append(raw)
    return cases


CASES = load_cases()


def run_case(case: Case, where: Path) -> set:
    shutil.copy(BASE, where / "base.rules")
    for name, text in case.files.items():
        if name == case.checked and (case.content is not None or case.absent):
            continue
        (where / name).write_text(text, encoding="utf-8")
    target = where / case.checked
    if case.content is not None:
        target.write_bytes(case.content)
    found = set()
    for d in check_file(str(target)):
        assert d.line >= 1 and d.col >= 1, d
        found.add((d.code, os.path.relpath(d.path, where), d.line, d.col))
    return found


def _param(case: Case):
    marks = [pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_case(case, tmp_path):
    assert bool(case.expected) != case.clean, "a case has '### CODE LINE:COL' lines or is '### clean'"
    found = run_case(case, tmp_path)
    assert sorted(found) == sorted(case.expected)


def test_base_checks_clean(tmp_path):
    assert check_file(str(BASE)) == []


def test_corpus_size():
    assert len(CASES) >= 45


@pytest.mark.parametrize("code", sorted(c for c in CODES if FAMILIES.match(c)))
def test_every_code_has_a_case(code):
    if code in UNREACHABLE:
        pytest.skip(UNREACHABLE[code])
    covered = {e[0] for c in CASES if not c.xfail for e in c.expected}
    assert code in covered, "add a case for %s (%s) to a file in tests/diagnostics/" % (code, CODES[code][1])
