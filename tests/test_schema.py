"""dsl/schema.json and the built-in validator in dsl/schema.py.

The checker validates with a validator compiled from the schema (for speed); these tests pin it to
the reference implementation, `jsonschema.Draft202012Validator`: same verdict on the shipped IRs
and on many mutated ones.
"""
from __future__ import annotations

import copy
import glob
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from provost.dsl import schema as S
from provost.dsl.declarations import KINDS
from provost.dsl.loader import dump_ir, parse_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = sorted(glob.glob(os.path.join(ROOT, "rulesets", "**", "*.rules"), recursive=True))


@pytest.fixture(scope="module")
def reference():
    return Draft202012Validator(S.schema_document())


@pytest.fixture(scope="module")
def caylus_ir():
    ir, diags = parse_file(os.path.join(ROOT, "rulesets", "caylus.rules"))
    assert diags == []
    return ir


def test_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(S.schema_document())
    assert S.schema_document()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_definition_is_used():
    text = json.dumps(S.schema_document())
    for name in S.schema_document()["$defs"]:
        assert '"#/$defs/%s"' % name in text, name


def test_declaration_kinds_match_the_builder():
    kinds = set(S.schema_document()["$defs"]["decl"]["properties"]["kind"]["enum"])
    assert kinds == set(KINDS) | {"variant"}
    for kind in kinds:
        assert "decl_" + kind in S.schema_document()["$defs"]


@pytest.mark.parametrize("path", SHIPPED, ids=os.path.basename)
def test_shipped_ir_is_valid(path, reference):
    ir, diags = parse_file(path)
    assert diags == []
    assert S.is_valid(ir)
    assert not list(reference.iter_errors(ir))


def test_yaml_round_trip_validates(caylus_ir, tmp_path):
    path = tmp_path / "caylus.yaml"
    path.write_text(dump_ir(caylus_ir, "yaml"))
    ir, diags = parse_file(str(path))
    assert diags == [] and ir == caylus_ir


# ------------------------------------------------------------------ agreement with jsonschema
def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _get(node, path):
    for p in path:
        node = node[p]
    return node


JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([1.0, 2.5, "", "x", "food", "pos", "a b",
                                                                    "binop", "amount", "call", "unlimited"]),
    st.just([]), st.just({}), st.just([1, 1, 1, 1]), st.just({"e": "int", "v": 1, "pos": [1, 1, 1, 1]}))


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_built_in_validator_agrees_with_jsonschema(caylus_ir, reference, data):
    # One declaration at a time keeps the reference validator fast.
    decl = copy.deepcopy(data.draw(st.sampled_from(caylus_ir["decls"])))
    doc = {"provost_ir": 1, "decls": [decl]}
    for _ in range(data.draw(st.integers(1, 2))):
        paths = list(_paths(doc))
        path = data.draw(st.sampled_from(paths[1:]))
        parent, key = _get(doc, path[:-1]), path[-1]
        action = data.draw(st.sampled_from(["replace", "delete", "add", "rename"]))
        if action == "replace":
            parent[key] = copy.deepcopy(data.draw(JSON_VALUES))
        elif action == "delete" and isinstance(parent, dict):
            del parent[key]
        elif action == "delete":
            parent.pop(key)
        elif action == "add" and isinstance(parent, dict):
            parent[data.draw(st.sampled_from(["bdoy", "extra", "pos", "e", "s", "kind"]))] = copy.deepcopy(data.draw(JSON_VALUES))
        elif action == "add":
            parent.append(copy.deepcopy(data.draw(JSON_VALUES)))
        elif isinstance(parent, dict) and isinstance(key, str):
            parent[key + "_"] = parent.pop(key)
    expected = reference.is_valid(doc)
    assert S.is_valid(doc) == expected
    assert bool(S.schema_errors(doc)) == (not expected)


@pytest.fixture(scope="module")
def saves():
    """Saves of the three games mid-play (a pending decision with its options, frames, pieces)."""
    import random

    from provost.interpreter.engine import Game
    out = []
    for name, players in (("caylus", 4), ("caylus1303", 3), ("ys", 2)):
        g = Game.new(name, players=players, seed=7)
        rng = random.Random(7)
        for _ in range(60):
            options = g.legal_options()
            g.apply(options[rng.randrange(len(options))])
        out.append(json.loads(g.to_json()))
    return out


@pytest.fixture(scope="module")
def save_schema():
    from provost.interpreter import savefile
    return savefile._schema()


SAVE_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([1.0, 2.5, "", "x", "pass", "a" * 201]),
    st.just([]), st.just({}), st.just([1, 1]), st.just(["pass", "pass"]), st.just(["pass", "place:gate"]))


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_built_in_validator_agrees_with_jsonschema_on_saves(saves, save_schema, data):
    # A save is checked by the built-in validator compiled from save.schema.json (its keywords
    # include maxLength and uniqueItems), and by jsonschema only for the message of a bad one.
    doc = copy.deepcopy(data.draw(st.sampled_from(saves)))
    for _ in range(data.draw(st.integers(0, 2))):
        paths = list(_paths(doc))
        path = data.draw(st.sampled_from(paths[1:]))
        parent, key = _get(doc, path[:-1]), path[-1]
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[key] = copy.deepcopy(data.draw(SAVE_VALUES))
        elif action == "delete":
            del parent[key]
        elif isinstance(parent, dict):
            parent[data.draw(st.sampled_from(["extra", "pending", "rng"]))] = copy.deepcopy(data.draw(SAVE_VALUES))
        else:
            parent.append(copy.deepcopy(data.draw(SAVE_VALUES)))
    assert S.compile_schema(save_schema)(doc, None, None) == Draft202012Validator(save_schema).is_valid(doc)


def test_unique_items_and_max_length_as_jsonschema_has_them():
    check = S.compile_schema({"type": "array", "uniqueItems": True, "items": {"maxLength": 3}})
    assert check([1, 2.5, "abc", [1], {"a": 1}, True, None], None, None)
    assert not check([1, 1.0], None, None)                   # 1 is 1.0 in JSON
    assert check([1, True], None, None) and check([0, False], None, None)     # true is not 1
    assert not check([[1, {"a": 2}], [1.0, {"a": 2.0}]], None, None)
    assert not check(["abcd"], None, None)
    errors: list = []
    assert not check(["x", "x", "long one"], (), errors)
    assert [path for path, _ in errors] == [(), (2,)]


def test_validator_keeps_jsonschema_semantics_for_numbers_and_booleans():
    doc = {"provost_ir": 1.0, "decls": []}
    assert S.is_valid(doc) and Draft202012Validator(S.schema_document()).is_valid(doc)
    assert not S.is_valid({"provost_ir": True, "decls": []})
    pos_float = {"provost_ir": 1, "decls": [{"kind": "resource", "name": "x", "title": None, "pos": [1.0, 2, 3, 4]}]}
    assert S.is_valid(pos_float)


def test_unsupported_keyword_fails_loudly():
    with pytest.raises(ValueError, match="not supported"):
        S._Compiler({}).compile({"type": "string", "format": "email"})


# ------------------------------------------------------------------ diagnostics
def _nested_not(n):
    e = {"e": "int", "v": 1, "pos": [1, 1, 1, 1]}
    for _ in range(n):
        e = {"e": "not", "x": e, "pos": [2, 3, 2, 9]}
    return {"provost_ir": 1, "decls": [{"kind": "let", "name": "x", "params": None, "value": e, "pos": [2, 1, 2, 9]}]}


def test_deep_ir_is_s002_not_a_recursion_error():
    ok = _nested_not(S.MAX_IR_DEPTH - 10)
    assert S.validate_ir(ok, "x.rules", None) == []
    diags = S.validate_ir(_nested_not(5000), "x.rules", None)
    assert [(d.code, d.line, d.col) for d in diags] == [("S002", 2, 3)]


def test_errors_in_rule_ir_use_the_nearest_pos(caylus_ir):
    ir = copy.deepcopy(caylus_ir)
    phase = next(d for d in ir["decls"] if d["kind"] == "phase")
    phase["body"][0]["bdoy"] = phase["body"][0].pop("body")
    diags = S.validate_ir(ir, "caylus.rules", None)
    assert {d.code for d in diags} == {"S001"}
    assert all((d.line, d.col) == tuple(phase["body"][0]["pos"][:2]) for d in diags)
    assert any("did you mean 'body'" in d.message for d in diags)


def test_errors_in_a_yaml_document_point_into_the_document(caylus_ir, tmp_path):
    text = dump_ir(caylus_ir, "yaml").replace("e: binop", "e: bnop", 1)
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    ir, diags = parse_file(str(path))
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "e: bnop" in l)
    assert ir is None
    assert [(d.code, d.line) for d in diags] == [("S001", line)]
    assert "did you mean 'binop'" in diags[0].message


def test_error_count_is_capped():
    doc = {"provost_ir": 1, "decls": [{"kind": "resource"}] * 80}
    diags = S.validate_ir(doc, "x.json", None)
    assert len(diags) == S.MAX_ERRORS
    assert "more schema errors" in diags[-1].message
