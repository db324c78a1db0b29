"""`provost lsp`: a language server for rule files (diagnostics, hover, definitions, references,
completion, rename, outline) over stdio, on pygls."""
