// Starts `provost lsp` (or the command in the provost.command setting) for .rules files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("provost").get("command");
  client = new LanguageClient("provost", "provost rules",
    { command, args },
    // A new file not saved yet (untitled:) is checked too, as if it were in the current folder.
    { documentSelector: [{ scheme: "file", language: "provost" }, { scheme: "untitled", language: "provost" }] });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
