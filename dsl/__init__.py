"""Rule language front end: parse, build the IR, validate it, check it."""
