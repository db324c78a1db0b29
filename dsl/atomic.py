"""Files written whole or not at all: the cache, a formatted rule file, a game's save."""
from __future__ import annotations

import contextlib
import os
import tempfile


def write_atomically(path: str, data: bytes, mode: int | None = None, prefix: str = ".tmp-") -> None:
    """Write ``data`` to a private temporary file beside ``path`` (``mode``: its permissions then),
    and put it in ``path``'s place: a failure or a crash mid-write never leaves half a file, nor a
    stray temporary one.  ``os.replace`` replaces a link at ``path`` itself, never its target.
    Raises ``OSError``."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=prefix)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
