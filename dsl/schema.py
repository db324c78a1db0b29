"""IR -> structural diagnostics, by the JSON Schema shipped beside this module (dsl/schema.json).

The schema is standard JSON Schema (Draft 2020-12): editors and the `jsonschema` package read it
as it is.  The checker validates with a small built-in validator instead, compiled from the same
file into closures, because importing `jsonschema` and walking the IR with it costs several times
the whole parse-and-check budget (DESIGN.md section 7).  The validator implements exactly the
keywords the schema uses (`_KEYWORDS`), and those of the engine's save schema, which it checks
too (`compile_schema`: a resumed game's save); compiling a schema that uses any other keyword
fails loudly, and tests/test_schema.py checks that it accepts and rejects the same documents as
`jsonschema.Draft202012Validator`, IRs and saves.

Before validating, the nesting of the IR is measured without recursion: an IR nested more than
`MAX_IR_DEPTH` containers deep (5,000 `not`s, a chain of 5,000 `+`) is reported as S002 and not
walked, so no later stage (schema, checks, digest, interpreter) can exhaust the Python stack.

Positions: in an IR built from rule text, an error is placed at the nearest enclosing node's
`pos`; in a YAML or JSON IR document (``text`` given) it is placed at the offending node in that
document, which is what an editor shows.
"""
from __future__ import annotations

import functools
import json
import re
from importlib import resources

from .diagnostics import Diagnostic, did_you_mean, explain, register

register("S001", "error", "the IR does not match the schema")
register("S002", "error", "the IR is nested too deeply")
explain("S001", """
An IR document (a YAML or JSON file, such as `provost export` prints) does not have the shape
`dsl/schema.json` describes: a property missing, misspelt or unknown, a value of the wrong kind,
a position not 1-based, an unknown declaration or expression kind, or another IR version.  The
checks and the interpreter rely on that shape, so nothing else is checked, and the file cannot
be played, until it matches.  Each mismatch is reported at its place in the document (from rule
text the IR is built by provost itself, so S001 there is a bug to report).

    provost_ir: 1
    decls:
    - kind: resource          # error: IR at decls/0: missing property 'title'
      name: pp
      titel: null             # error: IR at decls/0/titel: unexpected property 'titel'; did you mean 'title'?
      pos: [1, 1, 1, 12]

Fix: write the property as the schema names it (`title: null`); `provost export` of the rule
file shows a correct document to compare with.""")
explain("S002", """
The IR is nested more than 128 lists and mappings deep (`MAX_IR_DEPTH`).  Every pass over the IR
(the schema, the checks, the interpreter's compiler) goes down it level by level, so the checker
stops there and reports the first place that is too deep, rather than let a later pass run out
of stack.  Rules written by hand never come near it (the Caylus IR is 23 deep); generated
expressions can: each `not`, operator, call or list adds a level or two.

    let x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
                      # error: nested more than 128 levels deep (at decls/1/value/items/0/items/0/...)

Fix: split the expression or block: name parts of it with `let`s, or move inner blocks into
effects that the outer one calls.""")

MAX_IR_DEPTH = 128
"""Deepest nesting of lists and mappings accepted in an IR (the Caylus IR is 23 deep).

Every recursive pass over the IR (this validator, the checks, the interpreter's compiler) costs a
few Python frames per level, so this keeps all of them far from Python's recursion limit."""

MAX_ERRORS = 50
"""Schema errors reported per file; the rest are summarised in the last one."""

_IGNORED = {"$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples"}
_KEYWORDS = {"$ref", "type", "const", "enum", "required", "properties", "additionalProperties",
             "propertyNames", "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "minimum",
             "maximum", "minLength", "maxLength", "pattern", "anyOf", "oneOf", "allOf", "if", "then", "else"}


# ------------------------------------------------------------------ JSON semantics
def _is_integer(x) -> bool:
    return (type(x) is int) or (type(x) is float and x.is_integer())


_TYPE_TESTS = {
    "object": lambda x: type(x) is dict,
    "array": lambda x: type(x) is list,
    "string": lambda x: type(x) is str,
    "integer": _is_integer,
    "number": lambda x: type(x) in (int, float),
    "boolean": lambda x: type(x) is bool,
    "null": lambda x: x is None,
}


def _json_key(x):
    """A hashable key, equal for values equal as JSON Schema defines it: true is not 1, 1 is 1.0,
    containers compare deeply.  `const`, `enum` and `uniqueItems` compare these (the last in one
    pass over a set rather than a comparison of every pair)."""
    t = type(x)
    if t is bool or x is None:
        return (t, x)
    if t is int or t is float:
        return (int, int(x)) if t is int or x.is_integer() else (float, x)
    if t is list:
        return (list, tuple(_json_key(v) for v in x))
    if t is dict:
        return (dict, frozenset((k, _json_key(v)) for k, v in x.items()))
    return (t, x)


def _show(x) -> str:
    if type(x) is dict:
        return "an object"
    if type(x) is list:
        return "a list"
    if x is None:
        return "null"
    if type(x) is bool:
        return "true" if x else "false"
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _kinds(types) -> str:
    return " or ".join("null" if t == "null" else t for t in types)


# ------------------------------------------------------------------ compiling
class _Compiler:
    """Schema -> closures ``check(instance, path, errors) -> bool``.

    With ``errors`` None a check only answers valid/invalid and stops at the first failure (the
    fast path taken for every valid file); otherwise it appends ``(path, message)`` pairs and
    ``path`` is the tuple of keys and indexes leading to the instance.

    Sub-schemas are held in one-item lists ("cells") that callers index at call time
    (``c[0](...)``): a ``$ref`` is its definition's cell, so recursive references cost no
    trampoline frame and one IR level costs few Python frames.
    """

    def __init__(self, root: dict):
        self.root = root
        self.table: dict[str, list] = {}   # "#/$defs/NAME" -> cell

    # ---------------------------------------------------------------- plumbing
    def ref(self, ref: str) -> list:
        if not ref.startswith("#/$defs/"):
            raise ValueError("only local '#/$defs/...' references are supported, not %r" % ref)
        name = ref[len("#/$defs/"):]
        if name not in self.root.get("$defs", {}):
            raise ValueError("reference to a missing definition %r" % ref)
        if ref not in self.table:
            cell = self.table[ref] = [None]           # recursive references share the cell
            cell[0] = self.cell(self.root["$defs"][name])[0]
        return self.table[ref]

    def cell(self, schema) -> list:
        if isinstance(schema, dict) and "$ref" in schema and not (schema.keys() - _IGNORED - {"$ref"}):
            return self.ref(schema["$ref"])
        return [self.compile(schema)]

    def compile(self, schema):
        if schema is True:
            return lambda x, path, errs: True
        if schema is False:
            def never(x, path, errs):
                if errs is not None:
                    errs.append((path, "no value is allowed here"))
                return False
            return never
        unknown = set(schema) - _KEYWORDS - _IGNORED
        if unknown:
            raise ValueError("schema keyword(s) %s not supported by the built-in validator" % sorted(unknown))
        keys = set(schema)
        type_check = self.type_check(schema.get("type"))
        fast = self.leaf_predicate(schema)
        checks = []
        if "$ref" in schema:
            checks.append(self.ref(schema["$ref"]))
        if "const" in schema:
            checks.append([self.const(schema["const"])])
        if "enum" in schema:
            checks.append([self.enum(schema["enum"])])
        if {"required", "properties", "additionalProperties", "propertyNames"} & keys:
            checks.append([self.object(schema)])
        if {"items", "prefixItems", "minItems", "maxItems", "uniqueItems"} & keys:
            checks.append([self.array(schema)])
        if {"minimum", "maximum"} & keys:
            checks.append([self.bounds(schema.get("minimum"), schema.get("maximum"))])
        if {"minLength", "maxLength", "pattern"} & keys:
            checks.append([self.string(schema.get("minLength"), schema.get("maxLength"), schema.get("pattern"))])
        if "anyOf" in schema:
            checks.append([self.any_of(schema["anyOf"])])
        if "oneOf" in schema:
            checks.append([self.one_of(schema["oneOf"])])
        if "allOf" in schema:
            checks.append([self.all_of(schema["allOf"], schema)])
        if "if" in schema:
            checks.append([self.if_then(schema["if"], schema.get("then", True), schema.get("else", True))])
        full = self.combine(type_check, checks)
        if fast is None:
            return full

        def leaf(x, path, errs):
            if fast(x):
                return True
            return full(x, path, errs) if errs is not None else False
        return leaf

    @staticmethod
    def leaf_predicate(schema):
        """One inline test for a scalar schema (type, const, enum, bounds, pattern), or None."""
        if not schema.keys() - _IGNORED <= {"type", "const", "enum", "minimum", "maximum", "minLength", "maxLength",
                                            "pattern"}:
            return None
        types = schema.get("type")
        types = None if types is None else ([types] if isinstance(types, str) else list(types))
        if types is not None and not set(types) <= {"string", "integer", "null", "boolean"}:
            return None
        pytypes = None if types is None else frozenset(
            {"string": str, "integer": int, "null": type(None), "boolean": bool}[t] for t in types)
        integer = types is not None and "integer" in types
        if "const" in schema and type(schema["const"]) is not str:
            return None
        if "enum" in schema and not all(type(v) is str for v in schema["enum"]):
            return None
        const = schema.get("const")
        enum = frozenset(schema["enum"]) if "enum" in schema else None
        lo, hi = schema.get("minimum"), schema.get("maximum")
        min_length, max_length = schema.get("minLength"), schema.get("maxLength")
        rx = re.compile(schema["pattern"]).search if "pattern" in schema else None

        def fast(x):
            t = type(x)
            if pytypes is not None and t not in pytypes and not (integer and t is float and x.is_integer()):
                return False
            if const is not None and not (t is str and x == const):
                return False
            if enum is not None and not (t is str and x in enum):
                return False
            if t is int or t is float:
                if (lo is not None and x < lo) or (hi is not None and x > hi):
                    return False
            elif t is str:
                if (min_length is not None and len(x) < min_length) or (max_length is not None and len(x) > max_length) \
                        or (rx is not None and rx(x) is None):
                    return False
            return True
        return fast

    @staticmethod
    def combine(type_check, checks):
        if not checks:
            return type_check or (lambda x, path, errs: True)
        if type_check is None and len(checks) == 1:
            only = checks[0]
            if only[0] is not None:
                return only[0]
            return lambda x, path, errs: only[0](x, path, errs)

        def check(x, path, errs):
            # A value of the wrong type gets one error, not one per keyword.
            if type_check is not None and not type_check(x, path, errs):
                return False
            ok = True
            for c in checks:
                if not c[0](x, path, errs):
                    if errs is None:
                        return False
                    ok = False
            return ok
        return check

    # ---------------------------------------------------------------- keywords
    @staticmethod
    def type_check(types):
        if types is None:
            return None
        types = [types] if isinstance(types, str) else list(types)
        tests = tuple(_TYPE_TESTS[t] for t in types)

        def check(x, path, errs):
            for test in tests:
                if test(x):
                    return True
            if errs is not None:
                errs.append((path, "expected %s, found %s" % (_kinds(types), _show(x))))
            return False
        return check

    @staticmethod
    def const(value):
        key = _json_key(value)

        def check(x, path, errs):
            if _json_key(x) == key:
                return True
            if errs is not None:
                errs.append((path, "expected %s, found %s" % (json.dumps(value), _show(x))))
            return False
        return check

    @staticmethod
    def enum(values):
        plain = {v for v in values if type(v) is str}
        others = {_json_key(v) for v in values if type(v) is not str}

        def check(x, path, errs):
            if (type(x) is str and x in plain) or (others and _json_key(x) in others):
                return True
            if errs is not None:
                hint = did_you_mean(x, sorted(plain)) if type(x) is str and len(errs) < MAX_ERRORS else ""
                errs.append((path, "%s is not one of %s%s" % (_show(x), ", ".join(map(json.dumps, values)), hint)))
            return False
        return check

    def object(self, schema):
        props = {k: self.cell(v) for k, v in schema.get("properties", {}).items()}
        prop_items = list(props.items())
        required = list(schema.get("required", []))
        extra = schema.get("additionalProperties", True)
        closed = extra is False
        extra_cell = None if extra is True or closed else self.cell(extra)
        names = self.cell(schema["propertyNames"]) if "propertyNames" in schema else None
        scan_keys = closed or extra_cell is not None or names is not None
        required_set = frozenset(required)
        prop_keys = frozenset(props)
        simple = closed and names is None

        def check(x, path, errs):
            if type(x) is not dict:
                return True
            if errs is None and simple:
                # The fast path: set comparisons in C, then each present property.
                keys = x.keys()
                if not (required_set <= keys and keys <= prop_keys):
                    return False
                for k, c in prop_items:
                    if k in x and not c[0](x[k], None, None):
                        return False
                return True
            ok = True
            for k in required:
                if k not in x:
                    if errs is None:
                        return False
                    errs.append((path, "missing property '%s'" % k))
                    ok = False
            for k, c in prop_items:
                if k in x and not c[0](x[k], None if errs is None else path + (k,), errs):
                    if errs is None:
                        return False
                    ok = False
            if scan_keys:
                for k in x:
                    if names is not None and not names[0](k, None, None):
                        if errs is None:
                            return False
                        errs.append((path + (k,), "property name %s is not allowed" % _show(k)))
                        ok = False
                    if k in props:
                        continue
                    if closed:
                        if errs is None:
                            return False
                        missing = [p for p in props if p not in x]
                        hint = did_you_mean(k, missing or list(props)) if type(k) is str and len(errs) < MAX_ERRORS else ""
                        errs.append((path + (k,), "unexpected property %s%s" % (_show(k), hint)))
                        ok = False
                    elif extra_cell is not None and not extra_cell[0](x[k], None if errs is None else path + (k,), errs):
                        if errs is None:
                            return False
                        ok = False
            return ok
        return check

    def array(self, schema):
        prefix = [self.cell(s) for s in schema.get("prefixItems", [])]
        n_prefix = len(prefix)
        items = schema.get("items", True)
        lo, hi = schema.get("minItems"), schema.get("maxItems")
        unique = schema.get("uniqueItems") is True
        rest = None
        if items is False:
            hi = n_prefix if hi is None else min(hi, n_prefix)
        elif items is not True:
            rest = self.cell(items)

        def check(x, path, errs):
            if type(x) is not list:
                return True
            ok = True
            n = len(x)
            if lo is not None and n < lo:
                if errs is None:
                    return False
                errs.append((path, "%s of %d item%s is too short (at least %d)" % (_show(x), n, "" if n == 1 else "s", lo)))
                ok = False
            if hi is not None and n > hi:
                if errs is None:
                    return False
                errs.append((path, "%s of %d items is too long (at most %d)" % (_show(x), n, hi)))
                ok = False
            if unique and len({_json_key(v) for v in x}) < n:
                if errs is None:
                    return False
                errs.append((path, "%s has items that are the same" % _show(x)))
                ok = False
            for i in range(min(n, n_prefix)):
                if not prefix[i][0](x[i], None if errs is None else path + (i,), errs):
                    if errs is None:
                        return False
                    ok = False
            if rest is not None:
                f = rest[0]
                for i in range(n_prefix, n):
                    if not f(x[i], None if errs is None else path + (i,), errs):
                        if errs is None:
                            return False
                        ok = False
            return ok
        return check

    @staticmethod
    def bounds(lo, hi):
        def check(x, path, errs):
            if type(x) not in (int, float):
                return True
            if lo is not None and x < lo:
                if errs is not None:
                    errs.append((path, "%s is less than the minimum of %s" % (_show(x), lo)))
                return False
            if hi is not None and x > hi:
                if errs is not None:
                    errs.append((path, "%s is more than the maximum of %s" % (_show(x), hi)))
                return False
            return True
        return check

    @staticmethod
    def string(min_length, max_length, pattern):
        rx = re.compile(pattern) if pattern is not None else None
        is_name = pattern is not None and pattern.startswith("^[A-Za-z_]")

        def check(x, path, errs):
            if type(x) is not str:
                return True
            if min_length is not None and len(x) < min_length:
                if errs is not None:
                    errs.append((path, "%s is too short" % _show(x)))
                return False
            if max_length is not None and len(x) > max_length:
                if errs is not None:
                    errs.append((path, "%s is too long (at most %d characters)" % (_show(x), max_length)))
                return False
            if rx is not None and rx.search(x) is None:
                if errs is not None:
                    errs.append((path, "%s is not a valid name" % _show(x) if is_name
                                 else "%s does not match %r" % (_show(x), pattern)))
                return False
            return True
        return check

    def any_of(self, subs):
        cells = [(self.cell(s), s) for s in subs]

        def check(x, path, errs):
            for c, _ in cells:
                if c[0](x, None, None):
                    return True
            if errs is not None:
                # Explain with the first alternative whose type fits (null-or-X: the X).
                for c, s in cells:
                    if self._type_fits(s, x):
                        c[0](x, path, errs)
                        break
                else:
                    errs.append((path, "%s is not valid here" % _show(x)))
            return False
        return check

    def one_of(self, subs):
        cells = [self.cell(s) for s in subs]
        explain = self.any_of(subs)

        def check(x, path, errs):
            valid = sum(1 for c in cells if c[0](x, None, None))
            if valid == 1:
                return True
            if valid == 0:
                return explain(x, path, errs)
            if errs is not None:
                errs.append((path, "%s fits more than one of the alternatives" % _show(x)))
            return False
        return check

    def _type_fits(self, schema, x) -> bool:
        seen = 0
        while isinstance(schema, dict) and "type" not in schema and "$ref" in schema and seen < 50:
            schema = self.root["$defs"][schema["$ref"][len("#/$defs/"):]]
            seen += 1
        if not isinstance(schema, dict) or "type" not in schema:
            return True
        types = schema["type"]
        types = [types] if isinstance(types, str) else types
        return any(_TYPE_TESTS[t](x) for t in types)

    def all_of(self, subs, parent):
        dispatch = self._dispatch_table(subs)
        # The table lookup skips the branches that jsonschema also applies to non-objects and to
        # objects without the key; that is equivalent only when the enclosing schema rejects those.
        if dispatch is not None and parent.get("type") == "object" and dispatch[0] in parent.get("required", ()):
            key, cases = dispatch
            branches = {v: self.cell(then) for v, then in cases.items()}

            def by_key(x, path, errs):
                if type(x) is not dict:
                    return True
                v = x.get(key)
                c = branches.get(v) if type(v) is str else None
                return True if c is None else c[0](x, path, errs)
            return by_key
        cells = [self.cell(s) for s in subs]

        def check(x, path, errs):
            ok = True
            for c in cells:
                if not c[0](x, path, errs):
                    if errs is None:
                        return False
                    ok = False
            return ok
        return check

    @staticmethod
    def _dispatch_table(subs):
        """``allOf: [{if: {properties: {K: {const: V}}}, then: S}, ...]`` -> (K, {V: S}), else None."""
        key, cases = None, {}
        for s in subs:
            if set(s) != {"if", "then"} or set(s["if"]) != {"properties"} or len(s["if"]["properties"]) != 1:
                return None
            (k, cond), = s["if"]["properties"].items()
            if set(cond) != {"const"} or type(cond["const"]) is not str or (key is not None and k != key):
                return None
            key = k
            cases[cond["const"]] = s["then"]
        return (key, cases) if key is not None else None

    def if_then(self, cond, then, other):
        c_if, c_then, c_else = self.cell(cond), self.cell(then), self.cell(other)

        def check(x, path, errs):
            if c_if[0](x, None, None):
                return c_then[0](x, path, errs)
            return c_else[0](x, path, errs)
        return check


@functools.cache
def schema_document() -> dict:
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8"))


def compile_schema(document: dict):
    """A JSON Schema document (using only the keywords of ``_KEYWORDS``) compiled into
    ``check(instance, path, errors) -> bool``; ValueError for a keyword it does not know."""
    return _Compiler(document).compile(document)


@functools.cache
def compiled_validator():
    """The schema compiled once per process: ``check(ir, path, errors) -> bool``."""
    return compile_schema(schema_document())


def is_valid(ir) -> bool:
    """True when `ir` matches dsl/schema.json (assumes a depth within MAX_IR_DEPTH)."""
    return compiled_validator()(ir, None, None)


def schema_errors(ir) -> list[tuple[tuple, str]]:
    """Every mismatch as ``(path, message)``, in document order."""
    errs: list = []
    compiled_validator()(ir, (), errs)
    return errs


# ------------------------------------------------------------------ depth
def too_deep(ir, limit: int = MAX_IR_DEPTH) -> tuple | None:
    """The path to the first container nested deeper than `limit`, or None (no recursion)."""
    stack = [(ir, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        if depth >= limit:
            return _path_to(ir, node)
        if type(node) is dict:
            node = node.values()
        elif type(node) is not list:
            continue
        for v in node:
            if type(v) is dict or type(v) is list:
                push((v, depth + 1))
    return None


def _path_to(ir, target) -> tuple:
    stack = [(ir, ())]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        if type(node) is dict:
            stack.extend((v, path + (k,)) for k, v in node.items() if type(v) in (dict, list))
        elif type(node) is list:
            stack.extend((v, path + (i,)) for i, v in enumerate(node) if type(v) in (dict, list))
    return ()


# ------------------------------------------------------------------ positions
def _valid_pos(p) -> bool:
    return (type(p) is list and len(p) >= 2 and type(p[0]) is int and type(p[1]) is int
            and p[0] >= 1 and p[1] >= 1)


def _ir_position(ir, path) -> tuple[int, int]:
    """The `pos` of the nearest node on `path` that has a usable one."""
    node, best = ir, (1, 1)
    if type(node) is dict and _valid_pos(node.get("pos")):
        best = tuple(node["pos"][:2])
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if type(node) is dict and _valid_pos(node.get("pos")):
            best = (node["pos"][0], node["pos"][1])
    return best


def document_positions(text: str):
    """A function path -> (line, col) in a YAML/JSON document, or None if it cannot be composed."""
    try:
        import yaml
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        root = yaml.compose(text, Loader=loader)
    except Exception:  # noqa: BLE001 - the document already loaded once; positions are a nicety
        return None
    if root is None:
        return None

    def locate(path) -> tuple[int, int]:
        node = root
        mark = node.start_mark
        for part in path:
            nxt = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == part:
                        nxt, mark = v, k.start_mark   # point at the key: that is where the fix goes
                        break
            elif isinstance(node, yaml.SequenceNode) and type(part) is int and 0 <= part < len(node.value):
                nxt = node.value[part]
                mark = nxt.start_mark
            if nxt is None:
                break
            node = nxt
        return mark.line + 1, mark.column + 1
    return locate


def _where(path) -> str:
    return "/".join(str(p) for p in path) or "(top)"


# ------------------------------------------------------------------ entry point
def validate_ir(ir, path: str, text: str | None) -> list[Diagnostic]:
    """Structural diagnostics for an IR: S002 if nested too deeply, else S001 per schema mismatch.

    ``text`` is the YAML/JSON document the IR was read from (None for an IR built from rule text).
    """
    deep = too_deep(ir)
    try:
        if deep is None and is_valid(ir):
            return []
        errors = (schema_errors(ir) or [((), "does not match the schema")]) if deep is None else []
    except RecursionError:  # only if called with the stack already nearly full
        deep = ()

    locate = document_positions(text) if text is not None else None

    def position(p):
        if locate is not None:
            return locate(p)
        return _ir_position(ir, p)

    if deep is not None:
        line, col = position(deep)
        return [Diagnostic(path, line, col, "error", "S002",
                           "nested more than %d levels deep (at %s); split the expression or block"
                           % (MAX_IR_DEPTH, _where(deep[:12]) + ("/..." if len(deep) > 12 else "")))]
    out = []
    for where, message in errors[:MAX_ERRORS]:
        line, col = position(where)
        out.append(Diagnostic(path, line, col, "error", "S001", "IR at %s: %s" % (_where(where), message[:300])))
    if len(errors) > MAX_ERRORS:
        out[-1] = Diagnostic(path, out[-1].line, out[-1].col, "error", "S001",
                             out[-1].message + " (and %d more schema errors)" % (len(errors) - MAX_ERRORS))
    return out
