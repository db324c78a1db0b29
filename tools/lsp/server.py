"""The language server: pygls over stdio, each request answered by ``provost.tools.lsp.analysis``.

    provost lsp          # an editor starts it and talks to it on stdin/stdout

Diagnostics are published when a document opens and, debounced (``DEBOUNCE_S`` after the last
keystroke), when it changes; the open buffers' texts are what the checker reads.  Hover, go to
definition, find references, completion, rename and the document outline work across a variant,
its bases and its ``with`` variants; formatting is `provost fmt`'s.
"""
from __future__ import annotations

import asyncio
import os
import sys

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import analysis as A

DEBOUNCE_S = 0.05
REQUEST_FAILED = -32803      # LSP's error code for a request that is valid but cannot be done
SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "note": T.DiagnosticSeverity.Information}
COMPLETION_KIND = {"effect": T.CompletionItemKind.Function, "function": T.CompletionItemKind.Function,
                   "keyword": T.CompletionItemKind.Keyword, "let": T.CompletionItemKind.Constant,
                   "enum": T.CompletionItemKind.Enum, "counter": T.CompletionItemKind.Variable,
                   "resource": T.CompletionItemKind.Variable, "space": T.CompletionItemKind.Class,
                   "building": T.CompletionItemKind.Class, "phase": T.CompletionItemKind.Module,
                   "local": T.CompletionItemKind.Variable, "event": T.CompletionItemKind.Event,
                   "category": T.CompletionItemKind.EnumMember, "constant": T.CompletionItemKind.Constant,
                   "property": T.CompletionItemKind.Property}
SYMBOL_KIND = {"effect": T.SymbolKind.Function, "let": T.SymbolKind.Constant, "phase": T.SymbolKind.Module,
               "enum": T.SymbolKind.Enum, "space": T.SymbolKind.Class, "building": T.SymbolKind.Class,
               "game": T.SymbolKind.Namespace, "variant": T.SymbolKind.Namespace}

server = LanguageServer("provost", "1", text_document_sync_kind=T.TextDocumentSyncKind.Full)
_pending: dict[str, asyncio.TimerHandle] = {}
#: For each open document, the files its last check put diagnostics in (itself, its bases): a
#: file left out of the next check's findings is cleared, or an editor would keep stale marks.
_published: dict[str, set[str]] = {}


def _texts() -> dict[str, str]:
    """Every open document's current text, by absolute path."""
    out = {}
    for uri, doc in server.workspace.text_documents.items():
        path = to_fs_path(uri)
        if path:
            out[A._abs(path)] = doc.source
    return out


def _path(uri: str) -> str:
    return A._abs(to_fs_path(uri) or uri)


def _publish(uri: str) -> None:
    path = _path(uri)
    texts = _texts()
    try:
        found = A.diagnostics(path, texts)
    except Exception as e:  # noqa: BLE001 - a checker bug must not take the editor's server down
        server.window_log_message(T.LogMessageParams(T.MessageType.Error, "provost: %s: %s" % (type(e).__name__, e)))
        return
    for file in _published.get(uri, set()) - set(found):
        server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=from_fs_path(file), diagnostics=[]))
    _published[uri] = set(found)
    for file, diags in found.items():
        text = texts.get(file)
        items = []
        for d in diags:
            a, b, c, e = A.lsp_range(d, text)
            items.append(T.Diagnostic(range=T.Range(T.Position(a, b), T.Position(c, e)), message=d.message,
                                      severity=SEVERITY.get(d.severity), code=d.code, source="provost"))
        server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=from_fs_path(file), diagnostics=items))


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls, params: T.DidOpenTextDocumentParams):
    _publish(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls, params: T.DidChangeTextDocumentParams):
    uri = params.text_document.uri
    old = _pending.pop(uri, None)
    if old is not None:
        old.cancel()
    _pending[uri] = asyncio.get_event_loop().call_later(DEBOUNCE_S, _publish, uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls, params: T.DidSaveTextDocumentParams):
    _publish(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls, params: T.HoverParams):
    text = A.hover(_path(params.text_document.uri), _texts(), params.position.line, params.position.character)
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text)) if text else None


def _location(path: str, line: int, start: int, end: int) -> T.Location:
    return T.Location(uri=from_fs_path(path), range=T.Range(T.Position(line, start), T.Position(line, end)))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls, params: T.DefinitionParams):
    found = A.definition(_path(params.text_document.uri), _texts(), params.position.line, params.position.character)
    if found is None:
        return None
    return _location(found.path, found.line, found.col, found.col + 1)


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
def references(ls, params: T.ReferenceParams):
    return [_location(f, ln, a, b) for f, ln, a, b in
            A.references(_path(params.text_document.uri), _texts(), params.position.line, params.position.character)]


@server.feature(T.TEXT_DOCUMENT_COMPLETION)
def completion(ls, params: T.CompletionParams):
    items = [T.CompletionItem(label=label, kind=COMPLETION_KIND.get(kind, T.CompletionItemKind.Text),
                              detail=(kind + (": " + detail if detail else "")))
             for label, kind, detail in A.completions(_path(params.text_document.uri), _texts(),
                                                      params.position.line, params.position.character)]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_RENAME)
def rename(ls, params: T.RenameParams):
    try:
        edits = A.rename(_path(params.text_document.uri), _texts(), params.position.line, params.position.character,
                         params.new_name)
    except A.RenameRefused as e:      # the editor shows the reason (LSP's RequestFailed)
        raise JsonRpcException(str(e), code=REQUEST_FAILED) from None
    if not edits:
        return None
    return T.WorkspaceEdit(changes={from_fs_path(f): [
        T.TextEdit(range=T.Range(T.Position(ln, a), T.Position(ln, b)), new_text=params.new_name)
        for ln, a, b in spans] for f, spans in edits.items()})


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls, params: T.DocumentSymbolParams):
    out = []
    for d in A.document_symbols(_path(params.text_document.uri), _texts()):
        where = T.Range(T.Position(d.line, d.col), T.Position(d.line, d.col + len(d.name)))
        out.append(T.DocumentSymbol(name=d.name, kind=SYMBOL_KIND.get(d.kind, T.SymbolKind.Object), range=where,
                                    selection_range=where, detail=d.kind))
    return out


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
def formatting(ls, params: T.DocumentFormattingParams):
    """The whole document in `provost fmt`'s layout (one edit), or nothing when it is already."""
    from provost.dsl.fmt import Unformattable, format_text
    text = _texts().get(_path(params.text_document.uri))
    if text is None:
        return None
    try:
        new = format_text(text)
    except Unformattable:
        return None
    if new == text:
        return []
    lines = text.split("\n")
    return [T.TextEdit(range=T.Range(T.Position(0, 0), T.Position(len(lines), 0)), new_text=new)]


def _end_process(code: int) -> None:
    """End the process now, its output flushed.  pygls reads stdin in a pool thread, and a read may
    still be waiting there: a normal exit joins that pool, so it would wait for input that the
    editor closes only once the process has ended (both then wait for ever)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):       # (closed)
            pass
    os._exit(code)


@server.feature(T.EXIT)
def exit_(ls, params=None):
    # Run before pygls' own handling of ``exit``, which ends in that join.  As the protocol says:
    # 0 after a shutdown request, else 1.
    _end_process(0 if getattr(ls.protocol, "_shutdown", True) else 1)


def main() -> int:
    server.start_io()
    _end_process(0)     # the editor closed our input
