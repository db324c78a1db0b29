"""The `provost` command line (DESIGN.md section 6 is the contract).

Exit codes: 0 ok, 1 the input has errors (or a replay diverged), 2 usage errors and internal
errors. No input ever produces a Python traceback: user errors arrive as diagnostics or
`RulesError`, and anything else is reported as an internal error (traceback only with --debug).

Heavy modules (the loader, the engine, networkx, rich) are imported inside the commands that need
them, so `provost --help` and `provost check` on a missing file stay fast, and a command whose
module is not part of this build reports that instead of crashing.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from provost.dsl.diagnostics import (Diagnostic, RulesError, UsageError, did_you_mean, one_line, printable, render_text,
                                     sort_key)
from provost.dsl.source import is_bare_name
from provost.tools.cli.failures import EXIT_CODES, Interrupted, failure_object, release_pipes

CHECK_SUFFIXES = (".rules", ".yaml", ".yml", ".json")
"""Files `check` picks up when given a folder."""


# --- argument types ----------------------------------------------------------------------------


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {text}")
    return value


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None
    if not 0 <= seed < 1 << 64:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to 2**64 - 1, got {text}")
    return seed


def _output(text: str) -> str:
    """A file or folder to write: an empty name would be taken for none given (graph -o '' wrote on
    stdout, play --log '' to the default place, sim --report '' nothing)."""
    if not text:
        raise argparse.ArgumentTypeError("expected a file name, got ''")
    return text


def _agent_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of agent names, got {text!r}")
    return names


class _Variants(argparse.Action):
    """--variant may be given more than once, or as A+B: the variants compose, in order."""

    def __call__(self, parser, namespace, values, option_string=None):
        before = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, values if not before else before + "+" + values)


VARIANT_HELP = "a variant of RULESET, or a variant file; repeat it (or join names with '+') to compose variants"


# --- parser ------------------------------------------------------------------------------------

class _BadArguments(Exception):
    """argparse rejected the command line (its message is already on stderr)."""


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        # As argparse does (usage and message on stderr, exit 2), but raised, so that main can
        # also print the JSON failure object when --format json was asked for.
        # The message may quote the command line ("unrecognized arguments: ..."): escaped, as
        # everything provost prints of its arguments.
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {printable(message)}", file=sys.stderr)
        raise _BadArguments(message)


RULESET_HELP = ("a shipped ruleset (caylus, caylus1303, ys) or a path to a rule or IR file; a bare name "
                "(no '/', no suffix) of a shipped ruleset is the shipped one even if a file of that name is here")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser; every subcommand's options are parsed here, run elsewhere."""
    parser = _ArgumentParser(
        prog="provost", description="Rules-as-data for euro board games: check, export and play rule files.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
    # --debug is also accepted after the subcommand; SUPPRESS keeps the global value if absent.
    common = _ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser(
        "check", parents=[common], help="check rule files and IR files; print diagnostics",
        description="Check rule files and YAML/JSON IR files. Diagnostics print as "
                    "path:line:col: severity: message [code], and the path is always the file the "
                    "line:col is in: for an IR file written by 'provost export', positions in its "
                    "declarations are those of the rule file it was exported from (its 'source' key), "
                    "so those diagnostics name that rule file; errors in the IR document itself (syntax, "
                    "schema) name the IR file.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files, or folders searched for " + ", ".join(CHECK_SUFFIXES))
    p.add_argument("--explain", metavar="CODE", help="print what a diagnostic code means, with an example and the fix")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors for the exit code")
    p.set_defaults(func=cmd_check, check_parser=p)

    p = sub.add_parser("play", parents=[common], help="play one game with agents")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, metavar="N")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="the game's seed (default: one drawn from the operating system, and reported)")
    p.add_argument("--agents", type=_agent_list, metavar="a,b,...", help="one agent per seat, e.g. greedy,random")
    log = p.add_mutually_exclusive_group()
    log.add_argument("--log", type=_output, metavar="FILE", help="write the JSON Lines game log here (default: a new file in "
                     "the user's data folder, provost/logs, named at the end)")
    log.add_argument("--no-log", action="store_true", help="play without writing a game log")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--check-invariants", action="store_true",
                   help="check the rules' invariants after every decision (exit 1 on the first violated)")
    p.set_defaults(func=_dispatch("play", "provost.tools.cli.commands_play", "run_play"))

    p = sub.add_parser("replay", parents=[common], help="replay a game log and verify it reproduces")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=_dispatch("replay", "provost.tools.cli.commands_play", "run_replay"))

    p = sub.add_parser("sim", parents=[common], help="play many seeded games and summarise the results")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, metavar="N")
    p.add_argument("--games", type=_positive_int, required=True, metavar="G")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="J")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="the first seed: game i plays seed S+i (default: drawn from the operating system, and reported)")
    p.add_argument("--agents", type=_agent_list, metavar="a,b,...")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--compare", metavar="X", help="also play X (a variant of RULESET, a shipped game or any rule file) "
                   "on the same seeds and report the differences, paired by seed")
    p.add_argument("--plot", type=_output, metavar="FILE.png", help="draw score distributions and win rates (needs matplotlib)")
    p.add_argument("--report", type=_output, metavar="FILE.html",
                   help="write one page for a designer: question, settings, findings, plots, tables")
    p.add_argument("--question", metavar="TEXT", help="the question the --report page answers")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="local processes, or Ray")
    p.add_argument("--address", metavar="ADDR", help="the Ray cluster to use (with --backend ray)")
    p.add_argument("--check-invariants", action="store_true",
                   help="check the rules' invariants after every decision (a violation is a game's error)")
    p.set_defaults(func=_dispatch("sim", "provost.tools.cli.commands_sim", "run_sim"))

    p = sub.add_parser("rate", parents=[common], help="rate agents by a seeded round robin (openskill)")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--agents", type=_agent_list, required=True, metavar="a,b,...", help="the agents to rate")
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, metavar="N")
    p.add_argument("--games", type=_positive_int, default=200, metavar="G", help="games in all (default 200)")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="J")
    p.add_argument("--seed", type=_seed, default=0, metavar="S")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=_dispatch("rate", "provost.tools.cli.commands_rate", "run_rate"))

    p = sub.add_parser("sweep", parents=[common], help="vary rule numbers on the same seeds; paired differences")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--set", action="append", required=True, metavar="NAME=V1,V2,...",
                   help="a let (NAME or NAME[KEY]) or DECLARATION.ATTRIBUTE and its values; repeat for a grid")
    p.add_argument("--games", type=_positive_int, default=100, metavar="G", help="games per setting (default 100)")
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, metavar="N")
    p.add_argument("--agents", type=_agent_list, metavar="a,b,...")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="J")
    p.add_argument("--seed", type=_seed, default=0, metavar="S")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--plot", type=_output, metavar="FILE.png", help="one panel per metric: differences with intervals")
    p.add_argument("--report", type=_output, metavar="FILE.html", help="write the sweep as one HTML page")
    p.add_argument("--question", metavar="TEXT", help="the question the --report page answers")
    p.set_defaults(func=_dispatch("sweep", "provost.tools.cli.commands_sweep", "run_sweep"))

    p = sub.add_parser("train", parents=[common], help="fit the policy agent to greedy's choices for a ruleset")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, metavar="N")
    p.add_argument("--games", type=_positive_int, default=40, metavar="G", help="greedy self-play games (default 40)")
    p.add_argument("--seed", type=_seed, default=100_000, metavar="S")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="J")
    p.add_argument("--temperature", type=_positive_float, default=1.0, metavar="T",
                   help="greedy's option values (points) become targets softmax(value / T) (default 1; "
                        "lower aims harder at greedy's best option)")
    p.add_argument("-o", "--output", type=_output, metavar="FILE", help="where to write the weights (default: the user's data dir)")
    p.set_defaults(func=_dispatch("train", "provost.tools.cli.commands_train", "run_train"))

    p = sub.add_parser("soak", parents=[common], help="play seeded bot games with the rules' invariants checked",
                       description="Play K seeded games per player count with random agents (and, with --greedy, "
                                   "a greedy agent in one seat), checking the rules' invariants after every "
                                   "decision. A violation names the invariant, its position, the seed and the "
                                   "decision; exit 1 if any game failed.")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, nargs="+", metavar="N",
                   help="player counts (default: every count the rules allow)")
    p.add_argument("--seeds", type=_positive_int, default=10, metavar="K", help="seeds per player count (default 10)")
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="the first seed (default 0)")
    p.add_argument("--greedy", action="store_true", help="also play each seed with a greedy agent in one seat")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="J")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=_dispatch("soak", "provost.tools.cli.commands_soak", "run_soak"))

    p = sub.add_parser("compile", parents=[common],
                       help="compile the rules ahead of time into the user's cache (needs Cython and a C compiler)")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, metavar="N", help="the rules for N players")
    p.set_defaults(func=_dispatch("compile", "provost.tools.cli.commands_compile", "run_compile"))

    p = sub.add_parser("graph", parents=[common], help="draw the road or dependency graph as DOT")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--kind", choices=("road", "deps"), default="road")
    p.add_argument("-o", "--output", type=_output, metavar="FILE", help="output file (.dot, or .svg/.png with a renderer)")
    p.set_defaults(func=_dispatch("graph", "provost.tools.cli.commands_graph", "run_graph"))

    p = sub.add_parser("export", parents=[common], help="print a ruleset's IR as JSON or YAML")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--format", choices=("json", "yaml"), default="json")
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, metavar="N", help="the rules for N players")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("diff", parents=[common], help="say, rule by rule, what B changes in A")
    p.add_argument("base", metavar="A", help=RULESET_HELP)
    p.add_argument("variant", metavar="B", help="a variant name of A (or A+B), a shipped game, or any rule file")
    p.add_argument("--players", type=_positive_int, metavar="N", help="both sides with their rules for N players")
    p.set_defaults(func=_dispatch("diff", "provost.tools.cli.commands_diff", "run_diff"))

    p = sub.add_parser("explain", parents=[common], help="say why an option was not legal at a point of a logged game")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--at", type=_positive_int, required=True, metavar="N", help="the decision number (from 1)")
    p.add_argument("option", metavar="OPTION")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=_dispatch("explain", "provost.tools.cli.commands_explain", "run_explain"))

    p = sub.add_parser("rulebook", parents=[common], help="write a rulebook generated from the rule file")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, metavar="N", help="the rules for N players")
    p.add_argument("--format", choices=("md", "html"), default="md")
    p.add_argument("-o", "--output", type=_output, metavar="FILE")
    p.set_defaults(func=_dispatch("rulebook", "provost.tools.cli.commands_rulebook", "run_rulebook"))

    p = sub.add_parser("fmt", parents=[common], help="rewrite rule files in the canonical layout (or --check)")
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                   help="rule files or folders of them (default: the current folder)")
    p.add_argument("--check", action="store_true", help="write nothing; list the files that would change, exit 1 if any")
    p.add_argument("--diff", action="store_true", help="write nothing; print the changes as a unified diff")
    p.set_defaults(func=_dispatch("fmt", "provost.tools.cli.commands_fmt", "run_fmt"))

    p = sub.add_parser("lsp", parents=[common], help="the language server for rule files, on stdio (needs provost[lsp])",
                       description="The language server for rule files (LSP on stdin and stdout; needs provost[lsp]). "
                                   "Editor set-ups: editors/README.md.")
    # Editors' language clients (vscode-languageclient's TransportKind.stdio, many Neovim, Helix and
    # Emacs set-ups) add --stdio to the server's command: accepted, stdio being the only transport.
    p.add_argument("--stdio", action="store_true",
                   help="speak LSP on stdin and stdout: the default and only transport, accepted for editors "
                        "whose language client passes it")
    p.set_defaults(func=_dispatch("lsp", "provost.tools.cli.commands_lsp", "run_lsp"))

    p = sub.add_parser("serve", parents=[common], help="play, watch and replay games in the browser (needs provost[web])")
    p.add_argument("ruleset", nargs="?", metavar="RULESET", help=RULESET_HELP + "; offered first on the new-game page")
    p.add_argument("--variant", metavar="NAME", action=_Variants, help=VARIANT_HELP)
    p.add_argument("--players", type=_positive_int, metavar="N")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="the game's seed (default: one drawn from the operating system, and reported)")
    p.add_argument("--agents", type=_agent_list, metavar="a,b,...", help="seats: human, random or greedy; given, the game starts at once and its first human seat opens")
    p.add_argument("--host", default="127.0.0.1", metavar="H", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_port, default=8000, metavar="P")
    p.add_argument("--replay", metavar="LOG", help="step through this game log")
    p.add_argument("--saves", type=_output, metavar="DIR", help="where games in progress are saved (default: the user's data folder)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.set_defaults(func=_dispatch("serve", "provost.tools.cli.commands_web", "run_serve"))

    p = sub.add_parser("view", parents=[common], help="write a game log as one self-contained HTML replay")
    p.add_argument("log", metavar="LOG")
    p.add_argument("-o", "--output", type=_output, metavar="FILE", required=True)
    p.set_defaults(func=_dispatch("view", "provost.tools.cli.commands_web", "run_view"))

    p = sub.add_parser("variants", parents=[common], help="list shipped rulesets and their variants")
    p.add_argument("ruleset", nargs="?", metavar="RULESET", help=RULESET_HELP)
    p.set_defaults(func=cmd_variants)
    return parser


# --- lazy command modules ----------------------------------------------------------------------


class _Unavailable(Exception):
    """The module implementing a command is not part of this build."""

    def __init__(self, command: str):
        super().__init__(command)
        self.command = command


def _import_optional(module: str, command: str) -> ModuleType:
    """Import `module`, turning "this module does not exist" into `_Unavailable`.

    Only the module itself (or a parent package) being absent counts; an ImportError raised from
    inside an existing module is a bug and propagates as one.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            raise _Unavailable(command) from None
        raise


def _attr(module: ModuleType, name: str, command: str) -> Any:
    func = getattr(module, name, None)
    if func is None:
        raise _Unavailable(command)
    return func


def _dispatch(command: str, module: str, func: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        return int(_attr(_import_optional(module, command), func, command)(args) or 0)

    return run


def _loader(command: str) -> ModuleType:
    return _import_optional("provost.dsl.loader", command)


# --- check -------------------------------------------------------------------------------------


def collect_files(paths: Sequence[str]) -> tuple[list[str], list[Diagnostic]]:
    """Expand folders (recursively, sorted, skipping hidden folders) into checkable files.

    Missing paths become P005 diagnostics here, so `check` reports them even without a loader,
    and a folder holding no checkable file a P006.
    Files named explicitly are checked whatever their suffix.
    """
    files: list[str] = []
    diags: list[Diagnostic] = []
    for path in paths:
        if os.path.isdir(path):
            found = []
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
                found += [os.path.join(root, n) for n in names if n.lower().endswith(CHECK_SUFFIXES)]
            if not found:  # an empty folder is a mistake in the command line, not a clean check
                diags.append(Diagnostic(path, 1, 1, "error", "P006", "no rule or IR files (%s) in this folder"
                                        % ", ".join(CHECK_SUFFIXES)))
            files += sorted(found)
        elif os.path.exists(path):
            files.append(path)
        else:
            diags.append(Diagnostic(path, 1, 1, "error", "P005", "file not found"))
    unique = list(dict.fromkeys(files))
    return unique, diags


def _counts(diags: Sequence[Diagnostic]) -> dict[str, int]:
    return {key: sum(d.severity == sev for d in diags)
            for key, sev in (("errors", "error"), ("warnings", "warning"), ("notes", "note"))}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _explain_code(code: str, fmt: str = "text") -> int:
    from provost.dsl.diagnostics import CODES, explanation
    from provost.tools.dev.gen_docs import import_code_modules
    import_code_modules()       # every module that registers codes: all of dsl/README.md's table
    text = explanation(code)
    if text is None:
        raise UsageError("unknown diagnostic code '%s'%s" % (code, did_you_mean(code.strip().upper(), sorted(CODES))))
    if fmt == "json":           # one JSON object, as every --format json report
        name = code.strip().upper()
        print(json.dumps({"ok": True, "code": name, "severity": CODES[name][0], "summary": CODES[name][1],
                          "explanation": text}, indent=2))
    else:
        sys.stdout.write(text)
    return 0


MAX_SHOWN_PER_FILE = 50
"""Text output shows this many diagnostics per file, then counts the rest (a hostile file can hold
thousands); the summary line and JSON output count and list them all."""


def cmd_check(args: argparse.Namespace) -> int:
    if args.explain is not None:
        if args.paths:          # once: the paths were silently not checked, exit 0
            args.check_parser.print_usage(sys.stderr)
            raise UsageError("check --explain CODE checks no files: run 'provost check --explain %s' and "
                             "'provost check PATH...' separately" % args.explain.strip())
        return _explain_code(args.explain, args.format)
    if not args.paths:
        args.check_parser.print_usage(sys.stderr)      # as for any other usage error
        raise UsageError("check needs a PATH (a rule file, an IR file or a folder), or --explain CODE")
    files, diags = collect_files(args.paths)
    if files:
        check_file = _attr(_loader("check"), "check_file", "check")
        for path in files:
            try:
                found = list(check_file(path))
            except RulesError as exc:
                found = exc.diagnostics
            diags += sorted(found, key=sort_key)
    counts = _counts(diags)
    failed = counts["errors"] > 0 or (args.strict and counts["warnings"] > 0)
    if args.format == "json":
        report = {"ok": not failed, "files": files, "diagnostics": [d.to_dict() for d in diags], **counts}
        if failed:  # the same "error" as every command's failure object (provost.tools.cli.failures)
            report["error"] = failure_object("input", _plural(counts["errors"], "error") + ", "
                                             + _plural(counts["warnings"], "warning"))["error"]
        print(json.dumps(report, indent=2))
    else:
        shown: dict[str, int] = {}
        for diag in diags:
            n = shown[diag.path] = shown.get(diag.path, 0) + 1
            if n <= MAX_SHOWN_PER_FILE:
                print(render_text(diag))
        for path, n in shown.items():
            if n > MAX_SHOWN_PER_FILE:
                print(f"{printable(path)}: {n - MAX_SHOWN_PER_FILE} more diagnostics not shown "
                      f"(--format json lists every one)")
        summary = f"checked {_plural(len(files), 'file')}: {_plural(counts['errors'], 'error')}, " \
                  f"{_plural(counts['warnings'], 'warning')}"
        if counts["notes"]:
            summary += f", {_plural(counts['notes'], 'note')}"
        print(summary, file=sys.stderr)
    return 1 if failed else 0


# --- export ------------------------------------------------------------------------------------


def cmd_export(args: argparse.Namespace) -> int:
    loader = _loader("export")
    load_ruleset = _attr(loader, "load_ruleset", "export")
    dump_ir = _attr(loader, "dump_ir", "export")
    more = {"players": args.players} if args.players is not None else {}
    ir, diags = load_ruleset(args.ruleset, variant=args.variant, **more)
    _print_diagnostics(diags)
    if ir is None or any(d.severity == "error" for d in diags):
        return 1
    text = dump_ir(ir, args.format)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


# --- variants ----------------------------------------------------------------------------------


def cmd_variants(args: argparse.Namespace) -> int:
    loader = _loader("variants")
    shipped = _attr(loader, "list_shipped", "variants")()
    errors: list[Diagnostic] = []
    if args.ruleset is not None:
        # RULESET as everywhere: a bare shipped name, else a path (provost.dsl.source.is_bare_name).
        names = [r["name"] for r in shipped]
        named = [r for r in shipped if r["name"] == args.ruleset] if is_bare_name(args.ruleset) else []
        if named:
            shipped = named
        elif is_bare_name(args.ruleset) and not os.path.exists(args.ruleset):
            raise UsageError(f"unknown ruleset '{args.ruleset}'{did_you_mean(args.ruleset, names)} "
                             f"(shipped: {', '.join(names)})")
        else:
            shipped, errors = _describe_checked(loader, args.ruleset)
    header = ("RULESET", "VARIANT", "TITLE", "DESCRIPTION")
    rows = []
    for ruleset in shipped:
        rows.append((ruleset["name"], "(base)", ruleset.get("title") or "", ""))
        for variant in ruleset.get("variants", []):
            counts = variant.get("for_players")
            name = variant["name"] + (" (--players %s)" % ",".join(map(str, counts)) if counts else "")
            if variant.get("this_file"):
                name += " (this file: does not load)" if errors else " (this file)"
            rows.append(("", name, variant.get("title") or "", variant.get("description") or ""))
    if not rows:
        pass                        # nothing found to list: the errors below say why
    elif sys.stdout.isatty():
        _print_rich_table(header, rows)
    else:
        _print_plain_table(header, rows)
    if errors:
        _print_diagnostics(errors)
        return 1
    return 0


def _describe_checked(loader: ModuleType, path: str) -> tuple[list[dict], list[Diagnostic]]:
    """A rule file's game and variants, and the file's errors as `provost check` finds them: a
    file that does not load (a `replace` of nothing, a value the checker refuses) is no variant
    to play, so `variants FILE` says why and exits 1, listing what it can still find."""
    errors = [d for d in _attr(loader, "check_file", "variants")(path) if d.severity == "error"]
    try:
        return [_attr(loader, "describe_file", "variants")(path, strict=not errors)], errors
    except RulesError:
        if not errors:
            raise
        return [], errors           # no game to list (the file's head does not parse): the errors say why


def _print_plain_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    rows = [[one_line(cell) for cell in row] for row in rows]       # one line each: no \n from a title
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip())


def _print_rich_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(*header, box=None, header_style="bold")
    for row in rows:
        table.add_row(*(Text(one_line(cell)) for cell in row))    # Text: a title's "[/]" is not rich markup
    Console().print(table)


# --- main --------------------------------------------------------------------------------------


def _print_diagnostics(diags: Sequence[Diagnostic]) -> None:
    for diag in sorted(diags, key=sort_key):
        print(render_text(diag), file=sys.stderr)


def _tolerate_unencodable_output() -> None:
    """Odd file names (surrogate escapes) must not turn printing a diagnostic into a crash."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            pass


class _ClosedStream(io.TextIOBase):
    """Where a stream the caller closed (``provost ... >&-``: None in Python) was: writing fails
    as on a full disk (``cannot write the standard output``, exit 2), never an AttributeError."""

    def write(self, text):
        raise OSError(errno.EBADF, "the stream is closed (%s)" % os.strerror(errno.EBADF))


def _replace_closed_streams() -> None:
    """A closed stdout fails the first write (the JSON object or report it was for); on a closed
    stderr, messages for people are dropped (``print(..., file=None)`` would put them on stdout);
    a closed stdin is an empty one (a human seat's input ends, the language server stops)."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")
    if sys.stdout is None:
        sys.stdout = _ClosedStream()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the exit-time flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


JSON_REPORT_COMMANDS = frozenset({"check", "play", "replay", "sim", "explain", "soak", "rate", "sweep"})
"""Commands whose --format json is a report: one JSON object on stdout, also when they fail.
(export's --format json is the IR itself: a failed export prints nothing on stdout.)"""


def _json_requested(argv: Sequence[str]) -> bool:
    """Whether a command line argparse rejected asked for a JSON report (--format json, or an
    abbreviation argparse would accept, with a command of JSON_REPORT_COMMANDS)."""
    command = next((a for a in argv if not a.startswith("-")), None)
    if command not in JSON_REPORT_COMMANDS:
        return False
    for i, arg in enumerate(argv):
        name, eq, value = arg.partition("=")
        if len(name) > 3 and "--format".startswith(name):
            if (value if eq else (argv[i + 1] if i + 1 < len(argv) else "")) == "json":
                return True
    return False


class _StdoutFailed(Exception):
    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))


class _GuardedStdout:
    """sys.stdout while a command runs, telling its write errors (a full disk, a closed device)
    apart from any other OSError; a closed pipe stays a BrokenPipeError."""

    def __init__(self, stream):
        self._stream = stream

    @staticmethod
    def _guarded(call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _StdoutFailed(exc) from None

    def write(self, text):
        return self._guarded(self._stream.write, text)

    def flush(self):
        if getattr(self._stream, "closed", False):
            return None     # the command closed it (the language server does at `exit`): nothing to flush
        return self._guarded(self._stream.flush)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _interrupts_raise() -> None:
    """Ctrl-C raises KeyboardInterrupt again (`provost.tools.entry` made it a quiet exit until now)."""
    import signal
    try:
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:       # not the main thread: leave the caller's handling alone
        pass


def _refuse_writing_an_input(args: argparse.Namespace) -> None:
    """A usage error when a file the command writes (play's --log, -o, --plot, --report) is one it
    reads (the rules named, a variant file, --compare's rules, the log to view): the output is
    opened first, and would destroy the user's rule file or log before it is read."""
    outputs = [getattr(args, name, None) for name in ("output", "plot", "report")]
    inputs = [getattr(args, name, None) for name in ("ruleset", "base", "compare")]
    (outputs if args.command == "play" else inputs).append(getattr(args, "log", None))
    variant = getattr(args, "variant", None)
    if isinstance(variant, str):
        from provost.dsl.compose import split_variants
        inputs += split_variants(variant)
    for out in outputs:
        if not isinstance(out, str) or not os.path.isfile(out):
            continue
        for name in inputs:
            try:
                same = isinstance(name, str) and os.path.isfile(name) and os.path.samefile(out, name)
            except OSError:
                same = False
            if same:
                raise UsageError("cannot write %s: it is %s, which this command reads" % (out, name))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (argparse usage errors give 2)."""
    _replace_closed_streams()
    _tolerate_unencodable_output()
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _BadArguments as exc:
        if _json_requested(argv):
            try:
                print(json.dumps(failure_object("usage", str(exc))))
                sys.stdout.flush()
            except OSError as out:       # a full disk, a closed stdout: the exit code still says it
                _silence_stdout()
                if not isinstance(out, BrokenPipeError):
                    print("provost: error: cannot write the standard output: %s" % (out.strerror or out),
                          file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help (0)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    as_json = getattr(args, "format", None) == "json" and args.command in JSON_REPORT_COMMANDS

    def fail(kind: str, message: str, diagnostics: Sequence[Diagnostic] = ()) -> int:
        if as_json:
            try:
                print(json.dumps(failure_object(kind, message, diagnostics)))
                sys.stdout.flush()
            except (_StdoutFailed, BrokenPipeError):
                _silence_stdout()
        return EXIT_CODES[kind]

    real_stdout = sys.stdout
    sys.stdout = _GuardedStdout(real_stdout)
    try:
        _interrupts_raise()          # from here on, Ctrl-C is handled below (a sim's partial report)
        _refuse_writing_an_input(args)
        code = args.func(args)
        sys.stdout.flush()  # inside the try, so a closed pipe is handled below
        return code
    except _StdoutFailed as exc:
        _silence_stdout()   # nothing more can go there; the exit-time flush must stay quiet
        print(f"provost: error: cannot write the standard output: {exc}", file=sys.stderr)
        return 2
    except UsageError as exc:  # before RulesError: an unknown name is both
        print(f"provost: error: {printable(exc.message)}", file=sys.stderr)
        return fail("usage", exc.message, getattr(exc, "diagnostics", ()))
    except RulesError as exc:
        _print_diagnostics(exc.diagnostics)
        return fail("input", str(exc), exc.diagnostics)
    except _Unavailable as exc:
        message = f"the '{exc.command}' command is not available in this build"
        print(f"provost: error: {printable(message)}", file=sys.stderr)
        return fail("usage", message)
    except (KeyboardInterrupt, Interrupted) as exc:
        if str(exc):
            print(f"provost: {printable(exc)}", file=sys.stderr)
        return fail("interrupted", str(exc) or "interrupted")
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence: a bug, reported as one
        return _internal_error(args, exc, fail)
    finally:
        sys.stdout = real_stdout
        release_pipes()


def _internal_error(args: argparse.Namespace, exc: Exception, fail: Callable[..., int]) -> int:
    if args.debug:
        traceback.print_exc()
    advice = "" if args.debug else " (run with --debug for the traceback)"
    print(f"provost: internal error: {type(exc).__name__}: {printable(exc)}{advice}", file=sys.stderr)
    return fail("internal", f"{type(exc).__name__}: {exc}")


if __name__ == "__main__":
    sys.exit(main())
