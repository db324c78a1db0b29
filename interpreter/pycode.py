"""Python functions from syntax trees the expression compiler built, checked to be closed.

The expression compiler (interpreter/expressions.py) turns each IR expression into one
Python function: the tree is made of ``ast`` nodes by the compiler itself, then compiled
to a code object.  No text from a rule file is ever parsed as Python, and nothing is
``eval``-ed or ``exec``-ed: the functions are made from the code objects directly.

Before compiling, ``check_closed`` walks the whole tree and refuses anything outside a
small closed language, so that whatever a rule file says, the code can only:

- use the node types of ``_NODES`` (no imports, no statements but ``def``, ``=`` and
  ``return``, no ``global``, no ``del``, no ``with``/``try``/loops as statements);
- name ``g``, ``env``, the builtins of ``BUILTINS``, and names the compiler made
  (``_`` + letters + a number): a rule's own names are only ever string constants;
- read the attributes of ``ATTRIBUTES`` (the state's tables, ``dict.get``), never
  ``__class__`` and the like;
- hold constants that are ints, strings, booleans or None; every other value (a table,
  a helper, a position) is an object in the function's own namespace.
"""
from __future__ import annotations

import ast
import re
import types

BUILTINS = {"len": len, "sum": sum, "max": max, "min": min, "abs": abs, "list": list, "range": range}

ATTRIBUTES = frozenset({"s", "counters", "orders", "zones", "round", "humans", "occ", "tiles", "get", "open_spaces"})

_NODES = (
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign,
    ast.Name, ast.Load, ast.Store, ast.Constant, ast.List, ast.Dict,
    ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.BoolOp, ast.And, ast.Or,
    ast.UnaryOp, ast.Not, ast.USub, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
    ast.In, ast.NotIn, ast.Is, ast.IsNot, ast.IfExp, ast.ListComp, ast.comprehension, ast.Tuple,
    ast.Subscript, ast.Slice, ast.Attribute, ast.Call, ast.keyword, ast.NamedExpr, ast.Lambda,
)

_GENERATED = re.compile(r"_[a-z]+[0-9]+\Z")
_CONSTANT_TYPES = (int, str, bool, type(None))


class UnsafeCode(Exception):
    """The compiler built a tree outside the closed language: a bug in the compiler, never the rules'."""


def _name_ok(name: str) -> bool:
    return name in ("g", "env") or name in BUILTINS or _GENERATED.match(name) is not None


_NODE_TYPES = frozenset(_NODES)
#: The node types compile() wants a position on (expressions, statements, arguments...).
_LOCATED = frozenset(t for t in _NODES if "lineno" in t._attributes)


def check_closed(tree: ast.AST) -> None:
    """Raise ``UnsafeCode`` unless every node of the tree is in the closed language.

    The same walk gives every node the position ``ast.fix_missing_locations`` would (line 1,
    column 0: the compiler sets none), so a tree is gone through once before compiling."""
    stack = [tree]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        kind = type(node)
        if kind not in _NODE_TYPES:
            raise UnsafeCode("node %s" % kind.__name__)
        if kind is ast.Name:
            if not _name_ok(node.id):
                raise UnsafeCode("name %r" % node.id)
        elif kind is ast.Constant:
            if type(node.value) not in _CONSTANT_TYPES:
                raise UnsafeCode("constant of type %s" % type(node.value).__name__)
        elif kind is ast.Attribute:
            if node.attr not in ATTRIBUTES:
                raise UnsafeCode("attribute %r" % node.attr)
        elif kind is ast.arg:
            if not _name_ok(node.arg):
                raise UnsafeCode("argument %r" % node.arg)
        elif kind is ast.FunctionDef:
            if node.decorator_list or node.returns or not _GENERATED.match(node.name):
                raise UnsafeCode("function %r" % node.name)
        elif kind is ast.keyword:
            if node.arg != "default":
                raise UnsafeCode("keyword %r" % node.arg)
        elif kind is ast.arguments:
            if node.vararg or node.kwarg or node.kwonlyargs or node.defaults:
                raise UnsafeCode("arguments other than plain positional ones")
        if kind in _LOCATED:
            node.lineno = node.end_lineno = 1
            node.col_offset = node.end_col_offset = 0
        for field in node._fields:
            child = getattr(node, field, None)
            if type(child) is list:
                extend(x for x in child if x is not None)
            elif isinstance(child, ast.AST):
                push(child)


def make_functions(defs: list, namespace: dict, where: str, cache=None, prepare=None) -> dict:
    """Compile the ``def``s (checked first) into functions sharing ``namespace`` as globals.

    Returns name -> function; each is also put in ``namespace``, so the functions may call
    one another.  ``namespace`` holds the builtins of ``BUILTINS`` and nothing else of Python's.
    ``cache`` (a `provost.interpreter.codecache.CodeCache`) has the functions when the rules
    were compiled ahead of time (interpreter/native.py) or a shipped module holds a unit of the
    same source, or the code when these trees were checked and compiled by an earlier build of
    the same rules, and keeps it otherwise.  ``prepare(def)`` rewrites each tree before it is
    compiled (not when the code comes from the cache: it must not change the functions' names)."""
    names = tuple(d.name for d in defs)
    namespace["__builtins__"] = BUILTINS
    if cache is not None and cache.native is not None:
        made = cache.native.functions(where, names, namespace)
        if made is not None:
            return made
    unit = cache.next_unit(where, names) if cache is not None else None
    module = None
    if cache is not None and cache.shared:
        # A unit a shipped module holds is taken from there, found by its digest (of the trees
        # as compiled: prepared and checked); only a unit none holds is compiled.
        if unit is None or unit[3] is None:
            module = _checked(defs, prepare)
        if unit is None:
            unit = cache.keep(where, names)
        made = cache.shared.functions(cache.digest(unit, defs, namespace), names, namespace)
        if made is not None:
            return made
    if unit is None or unit[2] is None:
        if module is None:
            module = _checked(defs, prepare)
        code = compile(module, where, "exec", dont_inherit=True)
        codes = {c.co_name: c for c in code.co_consts if isinstance(c, types.CodeType)}
        if cache is not None:
            cache.compiled(unit if unit is not None else cache.keep(where, names), codes)
            if cache.recorder is not None:
                cache.recorder.record(where, defs, namespace)
    else:
        codes = dict(zip(names, unit[2]))
    made = {}
    for name in names:
        made[name] = namespace[name] = types.FunctionType(codes[name], namespace, name)
    return made


def _checked(defs: list, prepare) -> ast.Module:
    """The ``def``s prepared and checked, as a module."""
    if prepare is not None:
        for d in defs:
            prepare(d)
    module = ast.Module(body=defs, type_ignores=[])
    check_closed(module)            # and gives the nodes their positions
    return module
