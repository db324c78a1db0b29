"""Files provost keeps in the user's own cache directory, and only there.

What is cached (the grammar's parse tables; the IR and check results of rule files, `derived`;
the compiled code of a program's generated functions, `provost.interpreter.codecache`) is
derived data: losing it costs time, trusting a planted copy would cost correctness or worse.
So a cached file is read only when its directory and the file belong to this user and nobody
else can write them, it is never reached through a symbolic link, it is written to a temporary
file and renamed into place (readers see the old file or the new one, never half of one), and
its format is data: JSON, or for code Python's own ``marshal`` (what ``.pyc`` files hold,
which builds code objects and runs nothing), never a pickle.  Any doubt means "no cache": the
caller rebuilds.

The directory is ``platformdirs.user_cache_dir("provost")`` (``~/.cache/provost`` on Linux,
``$XDG_CACHE_HOME/provost`` when that is set); ``PROVOST_CACHE_DIR`` overrides it, and
``PROVOST_NO_CACHE=1`` turns caching off.

Every edit of a rule file is new content, so new files (about 90 KB for each change to Ys
that an editor checks, and a test run writes tens of megabytes): the directory is kept under a budget (``PROVOST_CACHE_MAX_MB``,
256 MB by default) by removing the files least recently used.  A file read is marked used (its
time set, at most once an hour), so the shipped games' files stay while old edits go.  The
directory is looked over after a process has written a sixteenth of the budget, and by any
process writing after ten minutes without a look.
"""
from __future__ import annotations

import json
import os
import stat
import time

from .atomic import write_atomically
from .switches import switch_on

CACHE_ENV = "PROVOST_CACHE_DIR"
NO_CACHE_ENV = "PROVOST_NO_CACHE"
MAX_BYTES = 64 * 1024 * 1024        # no cached file of provost's comes near this
BUDGET_ENV = "PROVOST_CACHE_MAX_MB"
DEFAULT_BUDGET_MB = 256
PRUNED_MARK = ".pruned"             # its time: when the directory was last looked over
PRUNE_INTERVAL = 600                # seconds between looks by processes that write little
TOUCH_INTERVAL = 3600               # a file read is marked used at most this often
STALE_TEMP = 3600                   # a temporary file this old was left by a process that died

_written = 0                        # bytes this process wrote since its last look


def cache_dir() -> str | None:
    """The user's provost cache directory, created private if missing; None when unusable."""
    if switch_on(NO_CACHE_ENV):
        return None
    path = os.environ.get(CACHE_ENV)
    if not path:
        try:
            import platformdirs
        except ImportError:     # pragma: no cover - a declared dependency
            return None
        path = platformdirs.user_cache_dir("provost", appauthor=False)
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return path if _private(path, directory=True) else None


def _private(path: str, directory: bool) -> bool:
    """True when PATH is (not through a link) a directory or regular file that only this user can write."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    kind_ok = stat.S_ISDIR(st.st_mode) if directory else stat.S_ISREG(st.st_mode)
    if not kind_ok:
        return False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def private_file(name: str) -> str | None:
    """The path of the cached file NAME if it is one this user alone can write (a regular file,
    not a link, in the private cache directory): for what is used by path, not read here (a
    compiled module is loaded by the dynamic linker)."""
    base = cache_dir()
    if base is None:
        return None
    path = os.path.join(base, name)
    if not _private(path, directory=False):
        return None
    try:
        _mark_used(path, os.lstat(path))
    except OSError:
        return None
    return path


def read_bytes(name: str) -> bytes | None:
    """The cached file NAME's bytes, or None (missing, not private, a link, unreadable, too big)."""
    base = cache_dir()
    if base is None:
        return None
    path = os.path.join(base, name)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if (not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES
                    or (hasattr(os, "getuid") and st.st_uid != os.getuid())
                    or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
                return None
            data = f.read(MAX_BYTES + 1)
            _mark_used(f.fileno(), st)
    except OSError:
        return None
    return data if len(data) <= MAX_BYTES else None


def _mark_used(file, st) -> None:
    """Set the time of FILE (a descriptor or a path), last changed as ``st`` says, to now if
    it is over an hour old: the budget removes the files least recently used first."""
    if time.time() - st.st_mtime > TOUCH_INTERVAL:
        try:
            os.utime(file)
        except OSError:         # read-only media: the file may go first, and be made again
            pass


def read_json(name: str, object_pairs_hook=None):
    """The cached JSON document NAME, or None (missing, not private, unreadable or not JSON);
    ``object_pairs_hook`` as ``json.loads`` takes it."""
    data = read_bytes(name)
    if data is None:
        return None
    try:
        return json.loads(data, object_pairs_hook=object_pairs_hook)
    except (ValueError, RecursionError):
        return None


def write_json(name: str, document) -> bool:
    """Write DOCUMENT as the cached file NAME atomically; False when there is no usable cache."""
    try:
        # dumps, not dump: only the one-shot encoder is json's C one (an IR: 30 ms against 5)
        text = json.dumps(document, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return False
    return write_bytes(name, text.encode("utf-8"))


def write_bytes(name: str, data: bytes) -> bool:
    """Write DATA as the cached file NAME atomically; False when there is no usable cache."""
    base = cache_dir()
    if base is None or len(data) > MAX_BYTES:
        return False
    try:
        write_atomically(os.path.join(base, name), data)    # (mkstemp: mode 0600, never a link)
    except OSError:
        return False
    _after_write(base, len(data))
    return True


def budget() -> int:
    """The most bytes the cache directory is let hold (``PROVOST_CACHE_MAX_MB``, a whole number
    of megabytes, at least 1; anything else means the default)."""
    text = os.environ.get(BUDGET_ENV, "").strip()
    mb = int(text) if text.isdigit() and 0 < int(text) < 1 << 30 else DEFAULT_BUDGET_MB
    return mb * 1024 * 1024


def _after_write(base: str, size: int) -> None:
    global _written
    _written += size
    limit = budget()
    if _written < limit // 16:
        try:
            if time.time() - os.lstat(os.path.join(base, PRUNED_MARK)).st_mtime < PRUNE_INTERVAL:
                return
        except OSError:
            pass                # never looked over: look now
    _written = 0
    prune(base, limit)


def prune(base: str, limit: int) -> int:
    """Remove the files of the cache directory BASE least recently used until they hold at most
    seven eighths of LIMIT bytes, if they hold more than LIMIT; and temporary files left over an
    hour.  Only BASE's own regular files: not links, not folders.  The number of bytes removed."""
    _set_mark(base)
    now = time.time()
    files, total, freed = [], 0, 0
    try:
        with os.scandir(base) as entries:
            for entry in entries:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if not stat.S_ISREG(st.st_mode) or entry.name == PRUNED_MARK:
                    continue
                if entry.name.startswith(".tmp-"):      # another process may be writing it
                    if now - st.st_mtime > STALE_TEMP and _remove(entry.path):
                        freed += st.st_size
                    continue
                files.append((st.st_mtime, entry.name, st.st_size))
                total += st.st_size
    except OSError:
        return freed
    if total <= limit:
        return freed
    files.sort()
    for _, name, size in files:
        if total <= limit * 7 // 8:
            break
        if _remove(os.path.join(base, name)):
            total -= size
            freed += size
    return freed


def _remove(path: str) -> bool:
    try:
        os.unlink(path)         # a loaded module stays mapped; a reader finds nothing and rebuilds
        return True
    except OSError:
        return False


def _set_mark(base: str) -> None:
    try:
        fd = os.open(os.path.join(base, PRUNED_MARK), os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return
    try:
        os.utime(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
