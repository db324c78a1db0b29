"""`provost lsp` in a real LSP session: pygls' own client starts the server as an editor would
(a subprocess on stdio) and opens, edits, hovers, completes, jumps and renames."""
from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsprotocol import types as T  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

from provost.dsl.loader import check_file, shipped_dir  # noqa: E402


class Session:
    def __init__(self, *options: str):
        self.options = options          # after `provost lsp`, as an editor's set-up adds them
        self.client = LanguageClient("provost-test", "1")
        self.diagnostics: dict[str, list] = {}
        self.arrived: dict[str, float] = {}

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params):
            self.diagnostics[params.uri] = params.diagnostics
            self.arrived[params.uri] = time.perf_counter()

    async def __aenter__(self):
        await self.client.start_io(sys.executable, "-m", "provost.tools.cli", "lsp", *self.options)
        await self.ask(self.client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities())), 60.0)
        self.client.initialized(T.InitializedParams())
        return self

    async def __aexit__(self, *exc):
        # Every wait is bounded: a server that stopped answering fails the test, never hangs the run.
        try:
            await self.ask(self.client.shutdown_async(None))
            self.client.exit(None)
        finally:
            server = getattr(self.client, "_server", None)
            try:
                await asyncio.wait_for(self.client.stop(), 30.0)
            finally:
                if server is not None and server.returncode is None:
                    server.kill()

    def open(self, path: Path, text: str | None = None) -> str:
        uri = from_fs_path(str(path))
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
            uri=uri, language_id="provost", version=1, text=text if text is not None else path.read_text())))
        return uri

    def change(self, uri: str, text: str, version: int = 2) -> None:
        self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))

    async def ask(self, request, timeout: float = 30.0):
        return await asyncio.wait_for(request, timeout)

    async def complete(self, uri: str, position: T.Position) -> dict:
        """The completion items offered at POSITION of the document URI, by label."""
        c = await self.ask(self.client.text_document_completion_async(
            T.CompletionParams(text_document=T.TextDocumentIdentifier(uri=uri), position=position)))
        return {i.label: i for i in c.items}

    async def wait(self, uri: str, since: float = 0.0, timeout: float = 20.0):
        end = time.perf_counter() + timeout
        while self.arrived.get(uri, -1.0) <= since:
            if time.perf_counter() > end:
                raise AssertionError("no diagnostics for %s" % uri)
            await asyncio.sleep(0.01)
        return self.diagnostics[uri]


def at(text: str, needle: str, skip: int = 0) -> T.Position:
    line_no = [i for i, line in enumerate(text.split("\n")) if needle in line][skip]
    return T.Position(line_no, text.split("\n")[line_no].index(needle) + 1)


@pytest.fixture
def files(tmp_path):
    base = tmp_path / "caylus.rules"
    shutil.copy(os.path.join(shipped_dir(), "caylus.rules"), base)
    variant = tmp_path / "caylus.rich.rules"
    variant.write_text('variant rich "Rich start" extends "caylus.rules":\n'
                       '    description "More money at the start."\n'
                       '    replace let start_money = [9, 10, 10, 11]\n'
                       '    effect bonus():\n'
                       '        gain 1 denier\n')
    return base, variant


def test_a_session_on_a_game_and_a_variant(files):
    base, variant = files

    async def session():
        async with Session() as s:
            text = base.read_text()
            uri = s.open(base)
            assert await s.wait(uri) == [] or all(d.severity != T.DiagnosticSeverity.Error for d in s.diagnostics[uri])
            # An error typed in: the diagnostic arrives, at the right range, with its code.
            broken = text.replace("gain 1 denier", "gian 1 denier", 1)
            sent = time.perf_counter()
            s.change(uri, broken)
            found = await s.wait(uri, since=sent)
            errors = [d for d in found if d.severity == T.DiagnosticSeverity.Error]
            assert errors and errors[0].code == "A401" and "did you mean 'gain'" in errors[0].message
            spot = at(broken, "gian")
            assert (errors[0].range.start.line, errors[0].range.start.character) == (spot.line, spot.character - 1)
            assert errors[0].range.end.character == spot.character - 1 + len("gian")
            s.latency = s.arrived[uri] - sent
            s.change(uri, text, version=3)                           # fixed again
            again = await s.wait(uri, since=time.perf_counter())
            assert not [d for d in again if d.severity == T.DiagnosticSeverity.Error]

            vtext = variant.read_text()
            vuri = s.open(variant)
            await s.wait(vuri)
            doc = T.TextDocumentIdentifier(uri=vuri)
            # Hover: a primitive's sentence, a declared name's kind and place.
            h = await s.ask(s.client.text_document_hover_async(T.HoverParams(text_document=doc, position=at(vtext, "gain"))))
            assert "gains" in h.contents.value
            # Go to the base's declaration of a let the variant replaces: in caylus.rules.
            d = await s.ask(s.client.text_document_definition_async(T.DefinitionParams(text_document=doc, position=at(vtext, "start_money"))))
            assert d.uri == uri and "start_money" in text.split("\n")[d.range.start.line]
            # Completion at a statement's start: the effects (the base's, the variant's, the primitives).
            labels = set(await s.complete(vuri, T.Position(4, 8)))
            assert {"bonus", "sell", "gain", "move_in_order", "if"} <= labels
            # In an expression: the base's names and the variant's.
            assert {"gold_mine", "denier", "start_money"} <= set(await s.complete(vuri, T.Position(4, 16)))
            # Outline of the variant: its own declarations.
            syms = await s.ask(s.client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc)))
            assert {"rich", "bonus"} <= {x.name for x in syms}
            # References across the files: the variant's line and the base's uses.
            refs = await s.ask(s.client.text_document_references_async(T.ReferenceParams(
                text_document=doc, position=at(vtext, "start_money"),
                context=T.ReferenceContext(include_declaration=True))))
            assert {r.uri for r in refs} == {uri, vuri}
            # Rename the variant's effect: the edit covers its declaration; the files check clean after.
            edit = await s.ask(s.client.text_document_rename_async(T.RenameParams(text_document=doc, position=at(vtext, "bonus"), new_name="payday")))
            changes = edit.changes[vuri]
            assert len(changes) == 1 and changes[0].new_text == "payday"
            # Formatting: a messy buffer comes back in provost fmt's layout.
            s.change(vuri, vtext.replace(", 10", ",10").replace("= [", "=  [") + "\n\n", version=2)
            fmt = await s.ask(s.client.text_document_formatting_async(T.DocumentFormattingParams(
                text_document=doc, options=T.FormattingOptions(tab_size=4, insert_spaces=True))))
            assert len(fmt) == 1 and fmt[0].new_text == vtext
            return s.latency

    latency = asyncio.run(session())
    assert latency < 5.0      # the figure (debounce included) is reported in docs/editors.md, not asserted here
    renamed = variant.read_text().replace("bonus", "payday")
    variant.write_text(renamed)
    assert not [d for d in check_file(str(variant)) if d.severity == "error"]


def test_the_stdio_option_editors_pass_starts_the_same_server(files):
    """vscode-languageclient (TransportKind.stdio) and many Neovim, Helix and Emacs set-ups add
    --stdio to the server's command: a whole session runs as without it, and ends with 0."""
    base, _ = files
    text = base.read_text()

    async def session():
        async with Session("--stdio") as s:
            broken = text.replace("gain 1 denier", "gian 1 denier", 1)
            uri = s.open(base, broken)
            errors = [d for d in await s.wait(uri) if d.severity == T.DiagnosticSeverity.Error]
            assert errors and errors[0].code == "A401"
            h = await s.ask(s.client.text_document_hover_async(T.HoverParams(
                text_document=T.TextDocumentIdentifier(uri=uri), position=at(broken, "gain "))))
            assert "gains" in h.contents.value
            s.server = s.client._server
        return s.server.returncode

    assert asyncio.run(session()) == 0
    shown = subprocess.run([sys.executable, "-m", "provost.tools.cli", "lsp", "--help"],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "--stdio" in shown.stdout and "only transport" in shown.stdout


def test_completion_offers_what_is_in_scope_at_the_cursor(files):
    """Each rule's parameters and local names only inside it; declaration kinds where a
    declaration starts, statements where one does, categories where a building's category goes."""
    base, variant = files
    text = ('variant rich "Rich start" extends "caylus.rules":\n'
            '    description "More money at the start."\n'
            '    effect bonus(k):\n'
            '        let extra = k + 1\n'
            '        for p in [1, 2]:\n'
            '            gain extra denier\n'
            '        gain 1 denier\n'
            '    effect other(m):\n'
            '        let spare = m\n'
            '        gain spare denier\n'
            '    building brewery "Brewery" wood:\n'
            '        cost 1 wood\n'
            '        prestige 2\n'
            '        work: gain 1 food\n')
    variant.write_text(text)

    async def session():
        async with Session() as s:
            uri = s.open(variant)
            await s.wait(uri)

            async def labels(position):
                return set(await s.complete(uri, position))

            in_loop = await labels(at(text, "extra denier", 0))
            assert {"k", "extra", "p", "denier", "start_money", "held"} <= in_loop
            assert not {"m", "spare", "gain", "phase", "building", "bonus"} & in_loop
            after_loop = await labels(at(text, "1 denier"))
            assert {"k", "extra"} <= after_loop and not {"p", "m", "spare"} & after_loop
            # Being typed: the line does not parse yet, the rule's names are still offered.
            s.change(uri, text.replace("gain spare denier", "gain spare + (", 1))
            typing = await labels(T.Position(9, len("        gain spare + (")))
            assert {"m", "spare", "denier"} <= typing and not {"k", "extra"} & typing
            s.change(uri, text, version=3)
            statement = await labels(T.Position(6, 8))
            assert {"gain", "bonus", "other", "if", "let", "set"} <= statement
            assert not {"denier", "k", "extra", "building", "start_money"} & statement
            change = await labels(T.Position(7, 4))
            assert {"effect", "building", "replace", "remove"} <= change and not {"gain", "denier", "k"} & change
            top = await labels(T.Position(0, 0))
            assert {"variant", "game", "building"} <= top and not {"denier", "gain", "replace"} & top
            category = await labels(at(text, "wood:"))
            assert "wood" in category and not {"denier", "gold_mine", "k", "if"} & category

    asyncio.run(session())


def test_rename_across_a_variant_and_its_base_leaves_both_clean(files, tmp_path):
    base, variant = files
    # The variant uses a let of the base: renaming it renames both files.
    variant.write_text(variant.read_text() + "    let richer = start_money\n")

    async def session():
        async with Session() as s:
            s.open(base)
            vuri = s.open(variant)
            await s.wait(vuri)
            vtext = variant.read_text()
            edit = await s.ask(s.client.text_document_rename_async(
                T.RenameParams(text_document=T.TextDocumentIdentifier(uri=vuri), position=at(vtext, "start_money", 1),
                               new_name="opening_money")))
            return edit.changes

    changes = asyncio.run(session())
    for uri, edits in changes.items():
        path = Path(uri.replace("file://", ""))
        lines = path.read_text().split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            ln = lines[e.range.start.line]
            lines[e.range.start.line] = ln[:e.range.start.character] + e.new_text + ln[e.range.end.character:]
        path.write_text("\n".join(lines))
    assert len(changes) == 2
    for path in (base, variant):
        assert "start_money" not in path.read_text()
        assert not [d for d in check_file(str(path)) if d.severity == "error"], path


def test_a_fix_clears_the_marks_a_variant_left_in_its_base(files):
    """A variant that breaks its base puts notes in the base file too; once fixed, the base
    file's diagnostics are published again, empty, rather than left stale in the editor."""
    base, variant = files
    broken = variant.read_text() + "    remove effect sell\n"

    async def session():
        async with Session() as s:
            vuri = s.open(variant, broken)
            await s.wait(vuri)
            buri = from_fs_path(str(base))
            marks = await s.wait(buri)
            assert marks
            sent = time.perf_counter()
            s.change(vuri, variant.read_text())
            assert not await s.wait(buri, since=sent)

    asyncio.run(session())


def test_shutdown_then_exit_ends_the_server_with_0():
    import json
    import subprocess

    def frame(obj):
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    talk = b"".join(frame(m) for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None}))
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "lsp"], input=talk, capture_output=True, timeout=60)
    assert done.returncode == 0 and b"internal error" not in done.stderr, done.stderr
    # An editor keeps the server's input open until the process has ended: `exit` alone must end it
    # (0 after a shutdown request, 1 without one, as the protocol says).
    for messages, code in ((talk, 0), (talk.replace(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown",
                                                            "params": None}), b""), 1)):
        server = subprocess.Popen([sys.executable, "-m", "provost.tools.cli", "lsp"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        server.stdin.write(messages)
        server.stdin.flush()
        try:
            assert server.wait(timeout=30) == code
        finally:
            server.kill()
            server.stdin.close()
            server.stdout.close()



@pytest.mark.parametrize("talk, code, said", [
    (b'Content-Length: 5\r\n\r\n{"a":', 0, "provost lsp: Unable to handle message: JSONDecodeError"),
    (b"Content-Length: 99999999999\r\n\r\n{}", 1, "a message of 99999999999 bytes"),
    (b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n", 1, "a header line longer than 4096 bytes"),
    (b"x" * 100_000, 1, "a header line longer than 4096 bytes"),
])
def test_input_that_is_not_lsp_is_one_line_on_stderr_never_a_traceback(talk, code, said):
    """A body that is not JSON is logged in one line and the server goes on; a Content-Length or a
    header line beyond the limits ends it with exit 1 (it was a MemoryError, an internal error)."""
    import subprocess

    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "lsp"], input=talk, capture_output=True,
                          timeout=60)
    err = done.stderr.decode()
    assert done.returncode == code and said in err, err
    assert "Traceback" not in err and "internal error" not in err

def test_a_rename_never_edits_the_shipped_games(tmp_path):
    """From a variant of the shipped Caylus, renaming a name Caylus uses would edit the installed
    game: refused, with the reason, and no edit."""
    from pygls.exceptions import JsonRpcException

    variant = tmp_path / "caylus.mine.rules"
    text = 'variant mine "Mine" extends caylus:\n    description "x"\n    replace let start_money = [9, 10, 10, 11]\n'
    variant.write_text(text)

    async def session():
        async with Session() as s:
            uri = s.open(variant)
            await s.wait(uri)
            doc = T.TextDocumentIdentifier(uri=uri)
            with pytest.raises(JsonRpcException) as e:
                await s.ask(s.client.text_document_rename_async(T.RenameParams(
                    text_document=doc, position=at(text, "start_money"), new_name="money")))
            assert "shipped rules" in str(e.value) and "caylus.rules" in str(e.value)

    asyncio.run(session())


def test_definition_on_a_buildings_category_goes_to_the_category(tmp_path):
    """Caylus has a resource and a category both called `wood`: on a building's head the name
    after the title is its category; in its cost, the resource."""
    from provost.tools.lsp import analysis as A
    path = tmp_path / "caylus.brew.rules"
    text = ('variant brew "Brew" extends caylus:\n    description "x"\n    building brewery "Brewery" wood:\n'
            '        cost 1 wood\n        prestige 2\n        work: gain 1 food\n')
    path.write_text(text)
    texts = {str(path): text}
    assert A.definition(str(path), texts, 2, text.split("\n")[2].rindex("wood") + 1).kind == "category"
    assert A.definition(str(path), texts, 3, text.split("\n")[3].index("wood") + 1).kind == "resource"


TINY = ('game tiny "Tiny":\n'
        '    players 2..4\n'
        '    score pp\n'
        '    rounds main\n'
        'resource pp "prestige points", wood "wood"\n'
        'category plain "plain":\n'
        '    workable yes\n'
        'building hut "Hut" plain:\n'
        '    cost 1 wood\n'
        '    pre\n'
        '    work:\n'
        '        gain 1 wood\n'
        'phase main:\n'
        '    gain 1 pp\n')


def test_completion_offers_a_declarations_own_attributes(tmp_path):
    """At a line's start in a building's body its attributes (`pre` -> prestige), in its `work:`
    block the statements, in a game's body the game's attributes, at the top level the kinds."""
    path = tmp_path / "tiny.rules"
    path.write_text(TINY)

    async def session():
        async with Session() as s:
            uri = s.open(path)
            await s.wait(uri)

            async def items(position):
                return await s.complete(uri, position)

            building = await items(T.Position(TINY.split("\n").index("    pre"), len("    pre")))
            assert {"prestige", "cost", "count", "work"} <= set(building) and not {"gain", "if", "players"} & set(building)
            assert building["prestige"].kind == T.CompletionItemKind.Property
            assert "attribute of a building" in building["prestige"].detail and "block" in building["work"].detail
            work = await items(at(TINY, "gain 1 wood"))
            assert {"gain", "if"} <= set(work) and not {"prestige", "cost"} & set(work)
            game = await items(at(TINY, "players"))
            assert {"players", "score", "rounds"} <= set(game) and not {"gain", "prestige"} & set(game)
            phase = await items(at(TINY, "gain 1 pp"))
            assert "gain" in phase and "players" not in phase
            top = await items(T.Position(0, 0))
            assert {"game", "building", "variant"} <= set(top) and not {"prestige", "gain"} & set(top)

    asyncio.run(session())


def test_completions_of_attributes_follow_the_enclosing_declaration(tmp_path):
    """`completions()` itself: a variant's `replace building`, an invariant, a space and a
    category hold attributes; a building's `owner:` block and a one-line `work:` hold statements."""
    from provost.tools.lsp import analysis as A
    path = tmp_path / "caylus.brew.rules"
    text = ('variant brew "Brew" extends caylus:\n'
            '    description "x"\n'
            '    replace building peddler "Peddler" fixed:\n'
            '        at 7\n'
            '        owner:\n'
            '            gain 1 denier\n'
            '        work: gain 1 food\n'
            '    invariant kept "Kept" per player:\n'
            '        holds workers >= 0\n'
            '    space well "Well":\n'
            '        slots 1\n'
            '    category odd "odd":\n'
            '        workable no\n')
    path.write_text(text)
    texts = {str(path): text}

    def labels(line, col):
        return {label for label, _kind, _detail in A.completions(str(path), texts, line, col)}

    assert {"at", "prestige", "work", "owner"} <= labels(3, 8) and "gain" not in labels(3, 8)
    assert "gain" in labels(5, 12) and "prestige" not in labels(5, 12)
    assert "gain" in labels(6, 14) and "prestige" not in labels(6, 14)
    assert {"holds", "constant"} <= labels(8, 8) and "gain" not in labels(8, 8)
    assert {"slots", "placeable", "work"} <= labels(10, 8) and "cost" not in labels(10, 8)
    assert {"workable", "built_on"} <= labels(12, 8)
    assert {"replace", "remove"} <= labels(9, 4) and "prestige" not in labels(9, 4)
    assert A.attribute_words("invariant")[0] == ("holds", "property", "attribute of an invariant")


def test_completions_inside_a_family_of_declarations(tmp_path):
    """A top-level `for` family holds declarations (nested families too), each with its own
    attributes; a `for` inside an effect repeats statements."""
    from provost.tools.lsp import analysis as A
    path = tmp_path / "fam.rules"
    text = ('for n in 1..2:\n'
            '    for what in [a, b]:\n'
            '        space area_{n}_{what} "Area":\n'
            '            slots 1\n'
            '    counter seen_{n}\n'
            'effect e:\n'
            '    for k in [1, 2]:\n'
            '        gain 1 pp\n')
    path.write_text(text)
    texts = {str(path): text}

    def labels(line, col):
        return {label for label, _kind, _detail in A.completions(str(path), texts, line, col)}

    assert {"space", "counter", "building"} <= labels(4, 4) and "gain" not in labels(4, 4)
    assert {"space", "building"} <= labels(2, 8) and "gain" not in labels(2, 8)
    assert {"slots", "placeable"} <= labels(3, 12) and "gain" not in labels(3, 12)
    assert "gain" in labels(7, 8) and "space" not in labels(7, 8)


BREWERY = ('variant brewery "The Brewery" extends caylus:\n'
           '    description "A new wood building."\n'
           '    building brewery "Brewery" wood:\n'
           '        cost 1 wood, 1 food\n'
           '        prestige 3 +\n'                 # a mistake being typed, in the middle
           '        work:\n'
           '            gain 4 denier\n'
           '    let extra = start_money\n')


def test_a_syntax_error_in_the_middle_leaves_the_rest_working(tmp_path):
    """The checker reads none of a file that does not parse; hover, definition, completion and
    the outline still read the rest of it (and its base)."""
    path = tmp_path / "caylus.brewery.rules"

    async def session():
        async with Session() as s:
            uri = s.open(path, BREWERY)
            found = await s.wait(uri)
            assert [(d.code, d.range.start.line) for d in found] == [("P100", 4)]
            doc = T.TextDocumentIdentifier(uri=uri)
            h = await s.ask(s.client.text_document_hover_async(T.HoverParams(text_document=doc, position=at(BREWERY, "start_money"))))
            assert "let" in h.contents.value and "caylus.rules" in h.contents.value
            d = await s.ask(s.client.text_document_definition_async(T.DefinitionParams(text_document=doc, position=at(BREWERY, "denier"))))
            assert d.uri == from_fs_path(os.path.join(shipped_dir(), "caylus.rules"))
            line = open(os.path.join(shipped_dir(), "caylus.rules")).read().split("\n")[d.range.start.line]
            assert line[d.range.start.character:d.range.end.character] == "denier"      # the name, not its line's start
            assert {"gain", "sell"} <= set(await s.complete(uri, T.Position(6, 12)))
            assert {"denier", "start_money"} <= set(await s.complete(uri, T.Position(6, 19)))
            syms = await s.ask(s.client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc)))
            assert {"brewery", "extra"} <= {x.name for x in syms}

    asyncio.run(session())


def test_columns_are_counted_in_utf16_code_units(tmp_path):
    """LSP's columns are UTF-16 code units unless negotiated: an emoji before a name counts 2."""
    path = tmp_path / "caylus.beer.rules"
    text = ('variant beer "Beer" extends caylus:\n'
            '    description "🍺 bière"\n'
            '    let tag = ["🍺🍺", fod, denier]\n')

    async def session():
        async with Session() as s:
            uri = s.open(path, text)
            found = await s.wait(uri)
            row = text.split("\n")[2]
            fod = len(row[:row.index("fod")].encode("utf-16-le")) // 2
            assert [(d.code, d.range.start.character, d.range.end.character) for d in found] == [("N103", fod, fod + 3)]
            denier = len(row[:row.index("denier")].encode("utf-16-le")) // 2
            doc = T.TextDocumentIdentifier(uri=uri)
            h = await s.ask(s.client.text_document_hover_async(T.HoverParams(text_document=doc, position=T.Position(2, denier + 1))))
            assert "`denier`" in h.contents.value
            refs = await s.ask(s.client.text_document_references_async(T.ReferenceParams(
                text_document=doc, position=T.Position(2, denier + 1), context=T.ReferenceContext(include_declaration=True))))
            assert [(r.range.start.character, r.range.end.character) for r in refs if r.uri == uri] == [(denier, denier + 6)]

    asyncio.run(session())


def test_the_marks_of_composed_variants_follow_every_open_file(tmp_path):
    """ys.cc.rules composes ys.aa.rules and ys.bb.rules, which both change the Jeweller: the
    conflict is marked in bb.  Opening bb (clean on its own) keeps the mark; fixing aa, the file
    that conflicts, clears it; closing cc takes its findings away."""
    body = ('    replace entry powers.jeweller:\n'
            '        repeat %d:\n'
            '            choose "Jeweller: take a gem":\n'
            '                option gem(c in colors where bank[c] > 0):\n'
            '                    take_from_bank c\n')
    aa, bb, cc = (tmp_path / ("ys.%s.rules" % n) for n in ("aa", "bb", "cc"))
    aa.write_text('variant aa "A" extends ys:\n    description "a"\n' + body % 3)
    bb.write_text('variant bb "B" extends ys:\n    description "b"\n' + body % 4)
    cc.write_text('variant cc "C" extends ys with "ys.aa.rules", "ys.bb.rules":\n    description "c"\n')

    async def session():
        async with Session() as s:
            buri = from_fs_path(str(bb))
            curi = s.open(cc)
            assert [(d.code, d.range.start.line) for d in await s.wait(buri)] == [("L007", 2)]
            sent = time.perf_counter()
            s.open(bb)
            await s.wait(buri, since=sent)
            await asyncio.sleep(0.3)
            assert [d.code for d in s.diagnostics[buri]] == ["L007"]
            # The offer of aa is changed to the Spy's: cc is checked again, bb's mark goes.
            auri = s.open(aa)
            await s.wait(auri)
            sent = time.perf_counter()
            s.change(auri, aa.read_text().replace("powers.jeweller", "powers.spy"))
            assert not await s.wait(buri, since=sent)
            # Broken again, then cc closed: nothing of cc's stays in bb.
            sent = time.perf_counter()
            s.change(auri, aa.read_text(), version=3)
            assert [d.code for d in await s.wait(buri, since=sent)] == ["L007"]
            sent = time.perf_counter()
            s.client.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri=curi)))
            assert not await s.wait(buri, since=sent)

    asyncio.run(session())


def test_an_untitled_document_is_checked_and_answered(tmp_path):
    """A buffer that is no file yet (`untitled:`): its diagnostics go to its own URI, and
    hover and completion answer from the shipped base it extends."""
    text = 'variant mine "Mine" extends caylus:\n    description "x"\n    let more = start_mony\n'

    async def session():
        async with Session() as s:
            uri = "untitled:Untitled-1"
            s.client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
                uri=uri, language_id="provost", version=1, text=text)))
            found = await s.wait(uri)
            assert [d.code for d in found] == ["N103"] and "start_money" in found[0].message
            doc = T.TextDocumentIdentifier(uri=uri)
            h = await s.ask(s.client.text_document_hover_async(T.HoverParams(text_document=doc, position=at(text, "caylus"))))
            assert "game" in h.contents.value
            assert "start_money" in await s.complete(uri, T.Position(2, 20))
            syms = await s.ask(s.client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc)))
            assert [x.name for x in syms] == ["mine", "more"]

    asyncio.run(session())


def test_outline_hover_and_scopes_of_a_variants_own_declarations(tmp_path):
    """A variant and its building may share a name: the outline lists both, each selected at its
    name; a building's category hovers as the category (Caylus's `wood` is a resource too); the
    option parameters of a `replace entry` are offered in its body; a CRLF file `provost fmt`
    leaves alone is not reformatted; control characters do not hide the rest of the file."""
    path = tmp_path / "caylus.tavern.rules"
    text = ('variant tavern "Tavern" extends caylus:\n'
            '    description "A tavern."\n'
            '    building tavern "Tavern" wood:\n'
            '        cost 1 wood\n'
            '        prestige 2\n'
            '        work: gain 1 denier\n')
    ys = tmp_path / "ys.rich.rules"
    ytext = ('variant rich "Rich" extends ys:\n'
             '    description "x"\n'
             '    replace entry powers.jeweller:\n'
             '        choose "Jeweller: take a gem":\n'
             '            option gem(c in colors where bank[c] > 0):\n'
             '                take_from_bank c\n')

    async def session():
        async with Session() as s:
            uri = s.open(path, text.replace("\n", "\r\n"))
            assert not await s.wait(uri)
            doc = T.TextDocumentIdentifier(uri=uri)
            syms = await s.ask(s.client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc)))
            assert [(x.name, x.kind, x.selection_range.start.line, x.selection_range.start.character) for x in syms] == [
                ("tavern", T.SymbolKind.Namespace, 0, 8), ("tavern", T.SymbolKind.Class, 2, 13)]
            h = await s.ask(s.client.text_document_hover_async(T.HoverParams(text_document=doc, position=at(text, "wood:"))))
            assert h.contents.value.startswith("**category** `wood`")
            fmt = await s.ask(s.client.text_document_formatting_async(T.DocumentFormattingParams(
                text_document=doc, options=T.FormattingOptions(tab_size=4, insert_spaces=True))))
            assert fmt is not None and len(fmt) == 0
            s.change(uri, text.replace('"Tavern" wood', '"Tav\x1bern" wood'))
            assert [d.code for d in await s.wait(uri, since=time.perf_counter())] == ["P007"]
            assert "`denier`" in (await s.ask(s.client.text_document_hover_async(
                T.HoverParams(text_document=doc, position=at(text, "denier"))))).contents.value
            yuri = s.open(ys, ytext)
            await s.wait(yuri)
            assert {"c", "colors"} <= set(await s.complete(yuri, T.Position(5, len("                take_from_bank "))))

    asyncio.run(session())


def test_a_rename_to_a_taken_name_or_no_name_is_refused(files):
    from pygls.exceptions import JsonRpcException
    base, variant = files

    async def session():
        async with Session() as s:
            s.open(base)
            vuri = s.open(variant)
            await s.wait(vuri)
            doc = T.TextDocumentIdentifier(uri=vuri)
            for new, reason in (("sell", "already declared (effect sell, caylus.rules:"), ("gain", "rule language"),
                                ("9lives", "not a name")):
                with pytest.raises(JsonRpcException) as e:
                    await s.ask(s.client.text_document_rename_async(T.RenameParams(
                        text_document=doc, position=at(variant.read_text(), "bonus"), new_name=new)))
                assert reason in str(e.value), e.value

    asyncio.run(session())


def test_a_position_past_the_end_of_a_document_is_answered_with_nothing(files):
    """A completion asked past the document's last line (a stale request after the text shrank)
    answers nothing, as hover and definition do there; it is not an internal error."""
    base, variant = files

    async def session():
        async with Session() as s:
            vuri = s.open(variant)
            await s.wait(vuri)
            assert await s.complete(vuri, T.Position(1000, 1000)) == {}
            sent = time.perf_counter()
            s.change(vuri, "")
            await s.wait(vuri, since=sent)
            assert await s.complete(vuri, T.Position(4, 8)) == {}
            doc = T.TextDocumentIdentifier(uri=vuri)
            assert await s.ask(s.client.text_document_hover_async(T.HoverParams(
                text_document=doc, position=T.Position(4, 8)))) is None

    asyncio.run(session())


def test_a_request_about_a_document_not_open_is_answered_from_its_file(files):
    """Hover, completion and references on a document the editor has not opened (or closed
    meanwhile) read its file as saved, and a document with no file answers nothing: no internal error."""
    base, variant = files

    async def session():
        async with Session() as s:
            s.open(base)
            doc = T.TextDocumentIdentifier(uri=from_fs_path(str(variant)))
            h = await s.ask(s.client.text_document_hover_async(T.HoverParams(
                text_document=doc, position=at(variant.read_text(), "start_money"))))
            assert h is not None and "start_money" in h.contents.value
            assert "gain" in await s.complete(doc.uri, T.Position(4, 8))
            gone = T.TextDocumentIdentifier(uri=from_fs_path(str(variant.parent / "gone.rules")))
            assert await s.ask(s.client.text_document_hover_async(T.HoverParams(
                text_document=gone, position=T.Position(0, 0)))) is None
            refs = await s.ask(s.client.text_document_references_async(T.ReferenceParams(
                text_document=gone, position=T.Position(0, 0), context=T.ReferenceContext(include_declaration=True))))
            assert not refs

    asyncio.run(session())


def test_formatting_leaves_alone_what_provost_fmt_refuses(files, tmp_path):
    """A buffer with lone carriage returns (old Mac line ends) was formatted as one line whose edit
    ended at the editor's line 1, which counts every CR as a line end: the rest of the document
    stayed after the formatted copy.  As `provost fmt` (P007 there), such a buffer, and one that
    does not parse, is left as it is; a clean one is still laid out."""
    base, variant = files
    vtext = variant.read_text()
    cases = {"cr.rules": ("# More money.\n" + vtext).replace("\n", "\r"),      # (a comment: read as one line)
             "broken.rules": vtext.replace(", 10", ",10") + "    let = \n"}

    async def session():
        async with Session() as s:
            for name, text in cases.items():
                path = tmp_path / name
                path.write_text(text, newline="")
                uri = s.open(path, text)
                await s.wait(uri)
                edits = await s.ask(s.client.text_document_formatting_async(T.DocumentFormattingParams(
                    text_document=T.TextDocumentIdentifier(uri=uri),
                    options=T.FormattingOptions(tab_size=4, insert_spaces=True))))
                assert not edits, name
                fmt = subprocess.run([sys.executable, "-m", "provost.tools.cli", "fmt", "--check", str(path)],
                                     capture_output=True, text=True, timeout=60)
                assert fmt.returncode == 1 and "error" in fmt.stderr, name
            messy = s.open(tmp_path / "messy.rules", vtext.replace(", 10", ",10"))
            edits = await s.ask(s.client.text_document_formatting_async(T.DocumentFormattingParams(
                text_document=T.TextDocumentIdentifier(uri=messy),
                options=T.FormattingOptions(tab_size=4, insert_spaces=True))))
            assert [e.new_text for e in edits] == [vtext]

    asyncio.run(session())


def test_lines_are_the_editors_in_documents_with_lone_cr_and_crlf_line_ends(tmp_path):
    """LSP ends a line at "\\r\\n", "\\n" and a lone "\\r".  A buffer with lone CR line ends was read
    as one line: hover, definition, references and the outline answered nothing past its first
    line, and the P007 mark stood past that line's end.  Now every answer is in the editor's lines
    (the mark covers the CR, the end of line 1), and a CRLF buffer answers as an LF one."""
    text = ('variant rich "Rich start" extends caylus:\n'
            '    description "More money \U0001F4B0 at the start."\n'
            '    effect bonus():\n'
            '        gian 1 denier\n'
            '    replace let start_money = [9, 10, 10, 11]\n'
            '    let more = bonus\n')

    async def session():
        async with Session() as s:
            for name, end in (("caylus.cr.rules", "\r"), ("caylus.crlf.rules", "\r\n"), ("caylus.lf.rules", "\n")):
                typed = text.replace("\n", end)
                path = tmp_path / name
                path.write_bytes(typed.encode("utf-8"))
                uri = s.open(path, typed)
                doc = T.TextDocumentIdentifier(uri=uri)
                found = await s.wait(uri)
                if end == "\r":
                    assert [(d.code, d.range.start.line, d.range.start.character, d.range.end.line,
                             d.range.end.character) for d in found] == [("P007", 0, 41, 1, 0)], name
                else:       # the typo on line 4, after a line holding a character of two UTF-16 units
                    spot = at(text, "gian")
                    assert [(d.code, d.range.start.line, d.range.start.character) for d in found
                            if d.severity == T.DiagnosticSeverity.Error] == [("A401", 3, spot.character - 1)], name
                h = await s.ask(s.client.text_document_hover_async(T.HoverParams(
                    text_document=doc, position=at(text, "denier"))))
                assert h is not None and h.contents.value.startswith("**resource** `denier`"), name
                where = await s.ask(s.client.text_document_definition_async(T.DefinitionParams(
                    text_document=doc, position=at(text, "bonus", skip=1))))
                assert (where.uri, where.range.start.line, where.range.start.character,
                        where.range.end.character) == (uri, 2, 11, 16), name
                refs = await s.ask(s.client.text_document_references_async(T.ReferenceParams(
                    text_document=doc, position=at(text, "bonus"), context=T.ReferenceContext(include_declaration=True))))
                assert sorted((r.range.start.line, r.range.start.character) for r in refs) == [(2, 11), (5, 15)], name
                syms = await s.ask(s.client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc)))
                assert [(x.name, x.selection_range.start.line) for x in syms] == [
                    ("rich", 0), ("bonus", 2), ("start_money", 4), ("more", 5)], name
            # Formatting a CRLF buffer: its line ends kept, the edit ending after its last line.
            messy = text.replace("gian", "gain").replace(", 10", ",10").replace("\n", "\r\n")
            uri = s.open(tmp_path / "caylus.messy.rules", messy)
            await s.wait(uri)
            edits = await s.ask(s.client.text_document_formatting_async(T.DocumentFormattingParams(
                text_document=T.TextDocumentIdentifier(uri=uri),
                options=T.FormattingOptions(tab_size=4, insert_spaces=True))))
            assert [(e.new_text, e.range.end.line, e.range.end.character) for e in edits] == [
                (messy.replace(",10", ", 10"), 7, 0)]

    asyncio.run(session())


def test_a_number_out_of_range_is_marked_sign_and_digits(tmp_path):
    """dsl/README.md: a number in a declaration's head may have a sign; the mark of a number out
    of range covers all of it (it covered its first character, the sign alone for `-6`)."""
    text = ('game g "G":\n    players 2..2\n    score vp\n    rounds p\nresource vp\n'
            'counter balance per player start -6 min -5 max 3\n'
            'counter debt per player start 12 max 10\n'
            'phase p:\n    step a:\n        each player in players():\n'
            '            gain 1 vp\n            set balance += 1\n            set debt += 1\n')

    async def session():
        async with Session() as s:
            uri = s.open(tmp_path / "g.rules", text)
            found = await s.wait(uri)
            assert sorted((d.code, d.range.start.line, d.range.start.character, d.range.end.character)
                          for d in found) == [("R302", 5, 33, 35), ("R302", 6, 30, 32)]

    asyncio.run(session())


def test_a_request_with_parameters_out_of_the_protocol_is_answered_with_an_error():
    """A negative position or a missing field: pygls dropped the request unanswered (an editor
    would wait for ever) and logged a Python traceback.  It is answered with JSON-RPC's invalid
    params, logged in one line naming the innermost error, and the server goes on."""
    import json
    import subprocess

    def frame(obj):
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    doc = {"uri": "untitled:Untitled-1"}
    talk = b"".join(frame(m) for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion",
         "params": {"textDocument": doc, "position": {"line": -1, "character": 0}}},
        {"jsonrpc": "2.0", "id": "three", "method": "textDocument/hover", "params": {"textDocument": doc, "position": {"line": 0}}},
        {"jsonrpc": "2.0", "id": 4, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None}))
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "lsp"], input=talk, capture_output=True, timeout=60)
    answers, rest = {}, done.stdout
    while rest:
        head, _, rest = rest.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
        message, rest = json.loads(rest[:length]), rest[length:]
        answers[message.get("id")] = message
    assert answers[2]["error"]["code"] == answers["three"]["error"]["code"] == -32602
    assert "result" in answers[4] and done.returncode == 0
    err = done.stderr.decode()
    assert "Traceback" not in err and 'File "' not in err, err
    assert "Position.line should be in range" in err and "KeyError: 'character'" in err
    assert all(line.startswith("provost lsp: ") for line in err.splitlines()), err


def test_a_variant_of_a_shipped_game_typed_in_a_folder_of_ones_own(tmp_path):
    """A variant made with `extends caylus` (the installed game, by name), its mistake marked and
    cleared, completion from the base's names while a change is typed: the first change of a new
    variant (`remove building `) and a value in a dictionary (`{1: `, an expression, not a body)."""
    mine = tmp_path / "mine.rules"
    head = 'variant mine "Mine" extends caylus:\n'
    wrong = (head + "    replace let start_money = {1: 8, 2: 9, 3: 9, 4: 10, 5: 10}\n"
             '    building wood_orchard "Orchard" wood:\n'
             "        cost 1 wood, 1 food\n        prestige 2\n        work: gain 3 fod\n")
    mine.write_text(wrong)
    fixed = wrong.replace("3 fod", "3 food")

    async def session():
        async with Session() as s:
            uri = s.open(mine)
            [mark] = await s.wait(uri)
            assert mark.code == "N103" and "did you mean 'food'" in mark.message
            assert (mark.range.start.line, mark.range.start.character, mark.range.end.character) == (5, 21, 24)
            sent = time.perf_counter()
            s.change(uri, fixed)
            assert not await s.wait(uri, since=sent)
            doc = T.TextDocumentIdentifier(uri=uri)
            asked = []

            async def timed(request):
                start = time.perf_counter()
                answer = await s.ask(request)
                asked.append(time.perf_counter() - start)
                return answer

            d = await timed(s.client.text_document_definition_async(T.DefinitionParams(doc, at(fixed, "start_money"))))
            assert d.uri == from_fs_path(os.path.join(shipped_dir(), "caylus.rules"))
            h = await timed(s.client.text_document_hover_async(T.HoverParams(doc, at(fixed, "food"))))
            assert "**resource** `food` (caylus.rules:" in h.contents.value
            # The first change of a new variant, being typed: the base's buildings.
            s.change(uri, head + "    remove building \n", version=3)
            start = time.perf_counter()
            labels = set(await s.complete(uri, T.Position(1, 20)))
            asked.append(time.perf_counter() - start)
            assert {"jeweller", "wood_farm_food", "gold_mine"} <= labels and "if" not in labels
            s.change(uri, head + "    replace step ", version=4)
            labels = set(await s.complete(uri, T.Position(1, len("    replace step "))))
            assert {"income", "placement", "setup"} <= labels and "jeweller" not in labels
            # A dictionary's value being typed: the values in scope, not the statements of a body.
            typing = fixed.replace("{1: 8, 2: 9, 3: 9, 4: 10, 5: 10}", "{1: ")
            s.change(uri, typing, version=5)
            start = time.perf_counter()
            labels = set(await s.complete(uri, T.Position(1, len("    replace let start_money = {1: "))))
            asked.append(time.perf_counter() - start)
            assert {"denier", "walls", "count"} <= labels and not {"gain", "set", "repeat"} & labels
            return asked

    asked = asyncio.run(session())
    assert max(asked) < 5.0     # each well under a second here; bounded loosely for slow machines
