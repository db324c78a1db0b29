"""Command-line tools: the ``provost`` entry point and its subcommands."""
