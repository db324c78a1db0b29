"""Input limits in provost.dsl.source: every bad file becomes one positioned diagnostic, quickly."""

from __future__ import annotations

import time

import pytest

from provost.dsl import source
from provost.dsl.diagnostics import CODES, Diagnostic
from provost.dsl.source import MAX_BYTES, MAX_NESTING, load_ir_document, read_source


def only(diags: list[Diagnostic]) -> Diagnostic:
    assert len(diags) == 1, diags
    return diags[0]


def where(diag: Diagnostic) -> tuple[str, int, int]:
    return diag.code, diag.line, diag.col


# --- read_source -------------------------------------------------------------------------------


def test_reads_plain_utf8_and_normalises_crlf(tmp_path):
    path = tmp_path / "a.rules"
    path.write_bytes(b"\xef\xbb\xbfbuilding farm:\r\n    cost 1 food\r\n")
    text, diags = read_source(path)
    assert diags == []
    assert text == "building farm:\n    cost 1 food\n"


def test_ten_megabyte_file_rejected_fast_at_1_1(tmp_path, monkeypatch):
    path = tmp_path / "big.rules"
    with open(path, "wb") as fh:
        fh.truncate(10 * 1024 * 1024)  # sparse: size without the write cost
    reads = []
    real_open = open

    def spy_open(*args, **kwargs):
        reads.append(args[0])
        return real_open(*args, **kwargs)

    monkeypatch.setattr("builtins.open", spy_open)
    start = time.perf_counter()
    text, diags = read_source(path)
    assert time.perf_counter() - start < 0.5
    assert text is None
    assert where(only(diags)) == ("P001", 1, 1)
    assert reads == []  # rejected from stat alone, without opening the file


def test_just_over_the_limit_rejected_and_at_the_limit_accepted(tmp_path):
    over = tmp_path / "over.rules"
    over.write_bytes(b"x" * (MAX_BYTES + 1))
    assert where(only(read_source(over)[1])) == ("P001", 1, 1)
    at = tmp_path / "at.rules"
    at.write_bytes(b"x" * MAX_BYTES)
    text, diags = read_source(at)
    assert diags == [] and len(text) == MAX_BYTES


def test_unbounded_device_reads_at_most_the_limit():
    text, diags = read_source("/dev/zero")
    assert text is None
    assert where(only(diags)) == ("P001", 1, 1)


def test_invalid_utf8_positioned_at_first_bad_byte(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_bytes(b"line one\ns\xc3\xa9 \xff rest\n")
    text, diags = read_source(path)
    assert text is None
    diag = only(diags)
    assert where(diag) == ("P002", 2, 4)  # columns count characters: s, é, space, then the bad byte
    assert "0xff" in diag.message


def test_truncated_multibyte_sequence_at_end(tmp_path):
    path = tmp_path / "cut.rules"
    path.write_bytes(b"ok\nabc\xe2\x82")
    assert where(only(read_source(path)[1])) == ("P002", 2, 4)


def test_nul_byte_reported_as_binary_at_its_position(tmp_path):
    path = tmp_path / "bin.rules"
    path.write_bytes(b"a\nbc\x00d\xff")
    text, diags = read_source(path)
    assert text is None
    assert where(only(diags)) == ("P003", 2, 3)


@pytest.mark.parametrize("content", [b"", b"   \n\t\n  ", b"\xef\xbb\xbf\n"])
def test_empty_or_blank_file(tmp_path, content):
    path = tmp_path / "empty.rules"
    path.write_bytes(content)
    assert where(only(read_source(path)[1])) == ("P004", 1, 1)


def test_missing_file(tmp_path):
    text, diags = read_source(tmp_path / "nope.rules")
    assert text is None
    diag = only(diags)
    assert where(diag) == ("P005", 1, 1)
    assert diag.path == str(tmp_path / "nope.rules")


def test_directory_is_not_a_file(tmp_path):
    assert where(only(read_source(tmp_path)[1])) == ("P005", 1, 1)


# --- load_ir_document --------------------------------------------------------------------------


def test_yaml_and_json_plain_data_load():
    assert load_ir_document("g.yaml", "a: 1\nb: [x, {c: null}]\n") == ({"a": 1, "b": ["x", {"c": None}]}, [])
    assert load_ir_document("g.yml", "- true\n- 15\n") == ([True, 15], [])
    assert load_ir_document("g.json", '{"a": [1, "[[", {}]}') == ({"a": [1, "[[", {}]}, [])


def test_yaml_alias_bomb_rejected_at_anchor():
    bomb = 'a: &a ["x", "x"]\nb: &b [*a, *a]\nc: &c [*b, *b]\n'
    obj, diags = load_ir_document("bomb.yaml", bomb)
    assert obj is None
    diag = only(diags)
    assert where(diag) == ("P010", 1, 4)
    assert "anchor" in diag.message


def test_yaml_alias_alone_rejected():
    # An undefined alias is a composer error in PyYAML; we stop at the alias event first.
    assert where(only(load_ir_document("x.yaml", "a: 1\nb: *nowhere\n")[1])) == ("P010", 2, 4)


def test_yaml_syntax_error_positioned():
    obj, diags = load_ir_document("bad.yaml", "a: 1\nb: [1, 2\nc: 3\n")
    assert obj is None
    diag = only(diags)
    assert diag.code == "P010" and diag.line == 3
    assert "YAML" in diag.message


def test_yaml_bad_indentation_positioned():
    assert where(only(load_ir_document("bad.yaml", "a:\n  b: 1\n c: 2\n")[1]))[:2] == ("P010", 3)


@pytest.mark.parametrize("text, line, col", [
    ("when: 2024-01-01\n", 1, 7),      # timestamp
    ("blob: !!binary aGk=\n", 1, 7),    # binary
    ("x: !!python/object:os.system {}\n", 1, 4),
    ("x:\n  1: a\n", 2, 3),             # non-string key
    ("x: .nan\n", 1, 4),
])
def test_yaml_non_json_values_rejected_with_position(text, line, col):
    obj, diags = load_ir_document("v.yaml", text)
    assert obj is None
    assert where(only(diags)) == ("P010", line, col)


def test_yaml_several_documents_rejected():
    assert where(only(load_ir_document("m.yaml", "a: 1\n---\nb: 2\n")[1])) == ("P010", 2, 1)


def test_yaml_comment_only_document_is_empty():
    assert where(only(load_ir_document("c.yaml", "# nothing here\n")[1])) == ("P004", 1, 1)


def test_json_syntax_error_positioned():
    obj, diags = load_ir_document("bad.json", '{\n  "a": 1,\n  "b": ]\n}')
    assert obj is None
    assert where(only(diags)) == ("P010", 3, 8)


def test_json_nan_and_huge_integers_rejected_with_position():
    assert where(only(load_ir_document("n.json", '{"s": "NaN",\n "a": NaN}')[1])) == ("P010", 2, 7)
    assert where(only(load_ir_document("i.json", '[\n 1, ' + "9" * 5000 + "]")[1])) == ("P010", 2, 5)


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_nesting_at_the_limit_accepted(suffix):
    text = "[" * MAX_NESTING + "]" * MAX_NESTING
    obj, diags = load_ir_document("ok" + suffix, text)
    assert diags == []
    for _ in range(MAX_NESTING - 1):
        obj = obj[0]
    assert obj == []


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 100_000])
def test_deep_nesting_rejected_at_the_offending_bracket(suffix, depth):
    text = "[" * depth + "]" * depth
    start = time.perf_counter()
    obj, diags = load_ir_document("deep" + suffix, text)
    assert time.perf_counter() - start < 5
    assert obj is None
    assert where(only(diags)) == ("P010", 1, MAX_NESTING + 1)


def test_deep_yaml_block_mapping_rejected():
    text = "".join("  " * i + f"k{i}:\n" for i in range(MAX_NESTING + 5)) + "  " * (MAX_NESTING + 5) + "v\n"
    diag = only(load_ir_document("deep.yaml", text)[1])
    assert diag.code == "P010" and "nesting" in diag.message


@pytest.mark.parametrize("name, text, at", [("f.yaml", "a: [1, 1.0]\n", (1, 8)), ("f.yaml", "a: 1.0e+300\n", (1, 4)),
                                            ("f.json", '{"a": "1.5",\n "b": [1.5]}', (2, 8))])
def test_fractions_are_not_whole_numbers(name, text, at):
    diag = only(load_ir_document(name, text)[1])
    assert where(diag) == ("P010", *at) and "whole number" in diag.message


def test_unknown_suffix_is_a_caller_bug():
    with pytest.raises(ValueError):
        load_ir_document("x.rules", "a")


def test_codes_used_here_are_registered():
    for code in ("P001", "P002", "P003", "P004", "P005", "P010"):
        assert CODES[code][0] == "error"
    assert source.MAX_BYTES == 1_000_000 and source.MAX_NESTING == 200


def test_a_mapping_with_a_hundred_thousand_keys_is_refused_fast():
    text = "provost_ir: 1\n" + "".join("k%d: 1\n" % i for i in range(100_000))
    start = time.perf_counter()
    diag = only(load_ir_document("keys.yaml", text)[1])
    assert time.perf_counter() - start < 5
    assert where(diag) == ("P010", source.MAX_ENTRIES + 1, 1) and "entries" in diag.message


def test_a_list_at_the_entry_limit_is_read():
    text = "a:\n" + "- 1\n" * source.MAX_ENTRIES
    obj, diags = load_ir_document("list.yaml", text)
    assert diags == [] and len(obj["a"]) == source.MAX_ENTRIES
