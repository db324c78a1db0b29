# cython: nonecheck=True
# (compiled, the nodes type g as GameFields: a None raises an AttributeError instead of reading a null)
"""Executable nodes: what compiled statements become.

The engine runs the frame on top of the stack by calling ``node.run(g, frame)``.
A node either finishes (pops its frame), pushes child frames, or asks a
player to decide (``g.ask``) and is later resumed through ``node.choose``.
Because the control position is the stack of plain frames, saving, cloning
and replaying never re-run code.
"""
from __future__ import annotations

from itertools import product

from .runtime import RuleRuntimeError


def option_id(name: str, values) -> str:
    if not values:
        return name
    return name + ":" + ":".join([v if type(v) is str else _fmt(v) for v in values])


def _fmt(v) -> str:
    t = type(v)
    if t is str:
        return v
    if t is int:
        return str(v)
    if t is list:
        return "+".join([_fmt(x) for x in v])
    if v is None:
        return "none"
    return str(v)


def _is_int(x) -> bool:
    return type(x) is int


def _is_pair(x) -> bool:
    """``[where, value]``: a place and what is there."""
    return type(x) is list and len(x) == 2 and type(x[0]) is str


class Node:
    __slots__ = ("id", "pos", "file")
    is_loop = False
    #: A node whose frame keeps its progress as a list (read at every step) saves it as a dict
    #: of these names, the save's format (``saved_data``, ``loaded_data``).
    data_fields = ()

    def run(self, g, frame):  # pragma: no cover - every node overrides
        raise NotImplementedError

    def choose(self, g, frame, entry):  # pragma: no cover - a node that asks overrides
        """Go on with the option ``entry`` of the decision this node asked."""
        raise NotImplementedError

    def saved_data(self, data):
        """A frame's progress as a save holds it."""
        if self.data_fields and type(data) is list:
            return dict(zip(self.data_fields, data))
        return data

    def loaded_data(self, data):
        """A frame's progress from a save (untrusted: ValueError when it is not this node's)."""
        if not self.data_fields or data is None:
            return data
        values = [data[k] for k in self.data_fields] \
            if type(data) is dict and list(data) == list(self.data_fields) else None
        if values is None or not self.valid_progress(values):
            raise ValueError("the progress of a %s frame" % type(self).__name__)
        return values

    def valid_progress(self, values: list) -> bool:
        """Whether ``values`` (by ``data_fields``) is progress this node could have made."""
        return True


class Seq(Node):
    __slots__ = ("children", "atoms")

    def __init__(self, children):
        self.children = children
        self.atoms = None        # per child: its function if it is an Atom (run in place), else None

    def run(self, g, frame):
        children = self.children
        atoms = self.atoms
        if atoms is None:
            nodes = g.prog.nodes
            atoms = self.atoms = [nodes[c].fn if type(nodes[c]) is Atom else None for c in children]
        s = g.s
        st = s.stack
        env = frame[2]
        last = len(children) - 1
        while True:
            pc = frame[1]
            if pc > last:
                st.pop()
                return
            fn = atoms[pc]
            if fn is None:
                if pc == last:
                    _enter(frame, children[pc], env)    # tail position: the child takes the frame over
                else:
                    frame[1] = pc + 1
                    st.append([children[pc], 0, env, None])
                return
            if pc == last:
                st.pop()            # tail position: the last child replaces the block
            else:
                frame[1] = pc + 1
            # A statement that completes at once runs here, without a frame of its own,
            # unless it fails: then its frame is pushed so the error names its position.
            try:
                fn(g, env)
            except Exception:
                st.append([children[pc], 0, env, None])
                raise
            if pc == last or st[-1] is not frame or s.pending is not None:
                return


class Atom(Node):
    """A statement that completes at once (it may still push frames, e.g. triggers)."""
    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def run(self, g, frame):
        g.s.stack.pop()
        self.fn(g, frame[2])


class If(Node):
    __slots__ = ("branches", "orelse")

    def __init__(self, branches, orelse):
        self.branches = branches
        self.orelse = orelse

    def run(self, g, frame):
        env = frame[2]
        for cond, body in self.branches:
            if cond(g, env):
                _enter(frame, body, env)        # the branch taken takes this frame over
                return
        if self.orelse is not None:
            _enter(frame, self.orelse, env)
        else:
            g.s.stack.pop()


class For(Node):
    __slots__ = ("var", "iter", "body", "acting")
    is_loop = True

    def __init__(self, var, it, body, acting):
        self.var, self.iter, self.body, self.acting = var, it, body, acting

    def run(self, g, frame):
        st = g.s.stack
        items = frame[3]
        if items is None:
            items = frame[3] = list(self.iter(g, frame[2]))
        i = frame[1]
        if i >= len(items):
            st.pop()
            return
        frame[1] = i + 1
        outer = frame[2]            # (typed compiled: ``dict`` of it is a C copy, not a call)
        env = dict(outer)
        env[self.var] = items[i]
        if self.acting:
            env["player"] = items[i]
        st.append([self.body, 0, env, None])


class As(Node):
    __slots__ = ("who", "body")

    def __init__(self, who, body):
        self.who, self.body = who, body

    def run(self, g, frame):
        outer = frame[2]
        env = dict(outer)
        p = self.who(g, outer)
        if type(p) is not int or not 0 <= p < g.s.players:
            # Not a seat (none, a number past the last seat): the rule's mistake, said at the
            # `as` line rather than as a Python error where the body uses the player.
            raise RuleRuntimeError("'as' needs a player (a seat from 0 to %d), not %s"
                                   % (g.s.players - 1, "none" if p is None else repr(p)), self.pos)
        env["player"] = p
        _enter(frame, self.body, env)       # the body takes this frame over, with its bindings


class Repeat(Node):
    __slots__ = ("times", "cond", "body")
    is_loop = True

    def __init__(self, times, cond, body):
        self.times, self.cond, self.body = times, cond, body

    def run(self, g, frame):
        env = frame[2]
        st = g.s.stack
        if self.times is not None:
            if frame[3] is None:
                frame[3] = self.times(g, env)
            if frame[1] >= frame[3]:
                st.pop()
                return
        elif not self.cond(g, env):
            st.pop()
            return
        frame[1] += 1
        st.append([self.body, 0, env, None])


class Turns(Node):
    """Players act in the order's sequence, round and round, until every one has passed."""
    __slots__ = ("order", "body")
    is_loop = True

    #: [the next seat's place in the order, the seats that passed]
    data_fields = ("next", "passed")

    def __init__(self, order, body):
        self.order, self.body = order, body

    @staticmethod
    def passed(frame) -> list:
        """The seats that passed in a turn frame that has started."""
        return frame[3][1]

    def valid_progress(self, values: list) -> bool:
        nxt, passed = values
        return _is_int(nxt) and type(passed) is list and all(_is_int(p) for p in passed)

    def run(self, g, frame):
        env = frame[2]
        st = g.s.stack
        data = frame[3]
        if data is None:
            data = frame[3] = [0, []]
        order = self.order(g, env)
        passed = data[1]
        n = len(order)
        if len(passed) >= n:
            st.pop()
            return
        i = data[0]
        for _ in range(n):
            p = order[i % n]
            i += 1
            if p not in passed:
                data[0] = i % n
                new = dict(env)
                new["player"] = p
                st.append([self.body, 0, new, None])
                return
        st.pop()  # pragma: no cover - unreachable: someone has not passed


class Break(Node):
    def run(self, g, frame):
        st = g.s.stack
        nodes = g.prog.nodes
        while st:
            f = st.pop()
            if nodes[f[0]].is_loop:
                return


class Option:
    __slots__ = ("name", "params", "when", "requires", "body", "pos", "when_fixed", "requires_fixed", "bindings",
                 "filtered")

    def __init__(self, name, params, when, requires, body, pos, when_fixed=False, requires_fixed=False,
                 bindings=None, filtered=False):
        self.name, self.params, self.when, self.requires, self.body, self.pos = name, params, when, requires, body, pos
        # `when` or the payments name none of the parameters: tested once, not per binding.
        self.when_fixed, self.requires_fixed = when_fixed, requires_fixed
        # f(g, env) -> [[id, {parameter: value}, option number], ...] the parameters' `where`s allow;
        # ``filtered``: also the `when` and the payments that name a parameter (the rest are fixed).
        self.bindings = bindings
        self.filtered = filtered


class Choose(Node):
    __slots__ = ("title", "options", "ask_always")

    def __init__(self, title, options, ask_always=False):
        self.title, self.options = title, options
        # The options depend on something another seat may not see (a hand, the brokers behind a
        # screen): then even a single option is asked, since skipping it would tell the other
        # seats that only one was left.
        self.ask_always = ask_always

    def legal(self, g, env):
        """(ids, entries) for every legal option in declaration order; an entry is
        ``[id, bindings, option index]``, as the frame keeps it for ``choose``."""
        ids, out = [], []
        for i, opt in enumerate(self.options):
            when, requires = opt.when, opt.requires
            if opt.when_fixed:
                if not when(g, env):
                    continue
                when = None
            if opt.requires_fixed:
                if not requires(g, env):
                    continue
                requires = None
            if opt.bindings is None:
                if (when is None or when(g, env)) and (requires is None or requires(g, env)):
                    ids.append(opt.name)
                    out.append([opt.name, {}, i])
                continue
            entries = opt.bindings(g, env)
            if not opt.filtered and (when is not None or requires is not None):
                # One scope for all the entries: each entry binds every parameter, so updating
                # it is merging afresh (the tests only read it).
                local = dict(env)
                kept = []
                for e in entries:
                    local.update(e[1])
                    if (when is None or when(g, local)) and (requires is None or requires(g, local)):
                        kept.append(e)
                entries = kept
            ids += [e[0] for e in entries]
            out += entries
        return ids, out

    def run(self, g, frame):
        env = frame[2]
        ids, legal = self.legal(g, env)
        s = g.s
        if not legal:
            s.stack.pop()
            return
        player = env.get("player")
        if (len(legal) == 1 and not self.ask_always) or (player is not None and player >= s.humans):
            # A forced move, or a neutral player: the rules list its preferred option first.
            _, b, i = legal[0]
            opt = self.options[i]
            _enter(frame, opt.body, {**env, **b} if b else env)
            return
        # A tuple: clones share it (State.clone copies lists, not tuples); nothing changes it,
        # and ``choose`` copies the bindings it takes out of it.
        frame[3] = tuple(legal)
        g.ask(player, self.title, ids, self)

    def choose(self, g, frame, entry):
        oid, b, i = entry
        env = frame[2]
        if b:
            env = {**env, **b}
            for k, v in b.items():
                if type(v) is list:
                    env[k] = v[:]
        opt = self.options[i]
        _enter(frame, opt.body, env)


def _enter(frame: list, body, env) -> None:
    """Node ``body`` takes ``frame`` over (the top of the stack), from its start and with the
    bindings ``env``, rather than a new frame replacing it: one list fewer made and freed."""
    frame[0] = body
    frame[1] = 0
    frame[2] = env
    frame[3] = None


class Activate(Node):
    """Activate spaces (or road slots) in order: each worker on them runs the space's work.

    After its work a worker comes home unless the work moved it elsewhere; on a
    tile owned by someone else the owner's bonus runs too.  With ``road_upto``
    the road is activated up to that slot from slot 1, or from ``road_from``'s
    slot, and workers before and beyond come home unused (those before when it
    starts, those beyond when it ends).
    """
    __slots__ = ("spaces", "road_upto", "road_from")
    #: The road slot it goes up to (None: the spaces), the next slot or space, the workers found
    #: there when it was reached ([where, seats]) and the next of them, the worker at work
    #: ([where, seat]) and whether the owner's bonus is still to come.
    data_fields = ("road", "i", "snap", "j", "cur", "bonus")

    def __init__(self, spaces, road_upto, road_from=None):
        self.spaces, self.road_upto, self.road_from = spaces, road_upto, road_from

    def run(self, g, frame):
        s = g.s
        d = frame[3]            # data_fields: d[0] road, d[1] i, d[2] snap, d[3] j, d[4] cur, d[5] bonus
        if d is None:
            if self.road_upto is not None:
                d = [self.road_upto(g, frame[2]), 1, None, 0, None, False]
                if self.road_from is not None:
                    d[1] = max(1, self.road_from(g, frame[2]))
                    g.return_road_before(d[1])
            else:
                d = [None, 0, None, 0, None, False]
            frame[3] = d
        if d[4] is not None:
            where, p = d[4]
            if d[5]:
                d[5] = False
                owner = g.owner_of(where)
                body = g.prog.owner_body(s.tiles[where][0]) if owner >= 0 else None
                if body is not None and owner != p:
                    s.stack.append([body, 0, {"player": owner, "self": where, "worker": p}, None])
                    return
            d[4] = None
            g.return_one(where, p)
            if s.stack[-1] is not frame:
                return                      # a deferred effect fired: let it run first
        while True:
            if d[2] is None:
                where = self._target(g, d)
                if where is False:
                    s.stack.pop()
                    if d[0] is not None:
                        g.return_road_beyond(d[0])
                    return
                if where is None:
                    d[1] += 1
                    continue
                d[2] = [where, s.occ.get(where, [])[:]]
                d[3] = 0
            where, snap = d[2]
            j = d[3]
            if j >= len(snap):
                d[2] = None
                d[1] += 1
                continue
            d[3] = j + 1
            p = snap[j]
            if p not in s.occ.get(where, ()):
                continue
            d[4] = [where, p]
            d[5] = d[0] is not None
            body = g.work_body(where)
            if body is None:
                continue
            s.stack.append([body, 0, {"player": p, "slot": j + 1, "self": where}, None])
            return

    def valid_progress(self, values: list) -> bool:
        road, i, snap, j, cur, bonus = values
        return (road is None or _is_int(road)) and _is_int(i) and _is_int(j) and type(bonus) is bool \
            and (snap is None or (_is_pair(snap) and type(snap[1]) is list and all(_is_int(p) for p in snap[1]))) \
            and (cur is None or (_is_pair(cur) and _is_int(cur[1])))

    def _target(self, g, d):
        """The next thing to activate: a space name, None to skip a slot, False when done."""
        i = d[1]
        if d[0] is None:
            return self.spaces[i] if i < len(self.spaces) else False
        s = g.s
        road = s.road
        if i > d[0] or i >= len(road):
            return False
        t = road[i]
        return t if t is not None and s.occ.get(t) else None


class BuildTile(Node):
    """Build a tile of a category from the supply, paying its cost less a discount.

    Options: ``skip``, and ``build:KIND`` (``/RES`` when part of the cost may
    be paid in several resources; ``@TILE`` for a tile built on another one).
    """
    __slots__ = ("category", "discount")

    def __init__(self, category, discount):
        self.category, self.discount = category, discount

    def run(self, g, frame):
        env = frame[2]
        player = env["player"]
        cat = self.category(g, env)
        discount = self.discount(g, env) if self.discount is not None else {}
        entries = [["skip", None]] + g.build_options(player, cat, discount)
        if len(entries) == 1:
            g.s.stack.pop()
            return
        frame[3] = entries
        g.ask(player, "Build a %s building" % cat, [e[0] for e in entries], self)

    def choose(self, g, frame, entry):
        g.s.stack.pop()
        if entry[1] is not None:
            g.do_build(frame[2]["player"], entry[1])


class Root(Node):
    """The game's own flow: setup, rounds of phases, the end condition, final scoring."""

    def run(self, g, frame):
        prog, s = g.prog, g.s
        stage = frame[1]
        if stage == 0:                       # setup
            frame[1] = 1
            if prog.setup_node is not None:
                s.stack.append([prog.setup_node, 0, {"player": None}, None])
            return
        if stage == 1:                       # start of a round
            if g.ended() or s.round >= prog.max_rounds:
                frame[1] = 3
                return
            s.round += 1
            g.reset("round")
            frame[1] = 2
            frame[3] = 0
            if "round_start" in prog.triggers:
                g.emit("round_start", None, s.round)
            return
        if stage == 2:                       # next phase of the round
            i = frame[3]
            if i > 0 and g.ended():
                frame[1] = 3
                return
            if i >= len(prog.rounds):
                frame[1] = 1
                if "round_end" in prog.triggers:
                    g.emit("round_end", None, s.round)
                return
            frame[3] = i + 1
            name = prog.rounds[i]
            s.phase = name
            g.reset("phase")
            s.stack.append([prog.phase_nodes[name], 0, {"player": None}, None])
            return
        if stage == 3:                       # final scoring
            frame[1] = 4
            s.phase = "final"
            if prog.final_node is not None:
                s.stack.append([prog.final_node, 0, {"player": None}, None])
            return
        s.stack.pop()
        s.finished = True
