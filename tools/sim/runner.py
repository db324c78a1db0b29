"""Playing many seeded games: one game, a batch of games, and the backends that run batches.

Game ``i`` of a sim seeded ``S`` is ``Game.new(rules, players, seed=S + i)`` played by
``make_agent(name, S + i, seat)`` in every seat through ``provost.interpreter.agents.play_game``, so
any game of a sim can be replayed alone with ``provost play RULESET --seed S+i --agents ...``.
A game's result is a *record* (a small JSON-able dict, see ``play_one``); records never
depend on the process that played them.

Backends run *tasks* (a spec index and a range of game indexes) and hand each finished
batch of records to ``on_result(spec_index, records)`` in whatever order they finish:

- ``LocalBackend``: ``--jobs 1`` plays in this process (one game at a time); more jobs use a
  ``ProcessPoolExecutor`` whose workers receive the loaded rules once, in the initializer
  (a ``Ruleset`` is a plain dataclass, so it pickles; the workers compile it once).
  Workers ignore SIGINT: on Ctrl-C the parent stops, cancels what has not started and
  terminates the workers.
- ``RayBackend``: the same batches as Ray tasks (``pip install provost[ray]``); the rules are
  ``ray.put`` once.  ``address=None`` starts a local Ray instance, else connects to a cluster.

On ``KeyboardInterrupt`` a backend cleans up and re-raises it: the caller keeps what
``on_result`` already received and prints a partial report.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import threading
import time
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

NEUTRAL = "neutral"
"""The agent label of a seat played by the rules (a neutral player), e.g. the third seat of Ys for 2."""


@dataclass(frozen=True, eq=False)
class SimSpec:
    """What to play: loaded rules, the number of deciding players, one agent name per seat, the root seed."""

    rules: object          # provost.dsl.loader.Ruleset (picklable)
    players: int
    agents: tuple          # one name per seat: the deciding seats' agents, then NEUTRAL for each neutral seat
    seed: int = 0
    check_invariants: bool = False   # the rules' invariants after every decision; a violation is the game's error

    @property
    def label(self) -> str:
        rs = self.rules
        return rs.name + (" / " + rs.variant if rs.variant else "")


Task = tuple  # (spec_index, first game index, number of games)
OnResult = Callable[[int, list], None]


# ------------------------------------------------------------------ one game
_KEYS: dict[str, str] = {}


def option_key(option: str) -> str:
    """The part of an option id that the report counts: its first two ``:`` fields.

    ``place:gold_mine`` -> ``place:gold_mine``; ``broker:front:2`` -> ``broker:front``;
    ``move:1:n3_port:m_blue_1`` -> ``move:1``; ``pass`` -> ``pass``.
    """
    key = _KEYS.get(option)
    if key is None:
        key = ":".join(option.split(":", 2)[:2])
        if len(_KEYS) < 100_000:
            _KEYS[option] = key
    return key


def _player_zones(game) -> dict:
    s, out = game.s, {}
    for name, z in game.prog.zones.items():
        if z.get("scope") != "player":
            continue
        seats = []
        for content in s.zones[name]:
            items = [x for part in content.values() for x in part] if isinstance(content, dict) else list(content)
            seats.append(sorted(str(x) for x in items))
        out[name] = seats
    return out


def _resources(game) -> dict:
    s, n, out = game.s, game.s.players, {}
    for name in game.prog.resources:
        v = s.counters.get(name)
        if isinstance(v, list) and len(v) == n and all(isinstance(x, int) for x in v):
            out[name] = list(v)
    return out


BUILD_VERBS = ("build",)
USE_VERBS = ("place", "use")


def _buildings(game, counts: dict) -> dict:
    """Buildings built and used, from the option counts of a finished game.

    ``build:KIND`` (or ``build:KIND/payment``) is a build of ``KIND``; ``place:X`` and ``use:X``
    are a use of ``X`` when ``X`` is a building or a space the rules declare, or a tile on the
    board (counted under its kind: ``wood_farm_2`` is a ``wood_farm``).  Anything else (Ys's
    ``place:2`` is an order card) is not a building.
    """
    prog, tiles = game.prog, game.s.tiles
    known = set(prog.buildings) | set(prog.spaces)
    built: dict[str, int] = {}
    used: dict[str, int] = {}
    for key, n in counts.items():
        verb, _, arg = key.partition(":")
        if not arg:
            continue
        if verb in BUILD_VERBS:
            kind = arg.split("/", 1)[0]
            built[kind] = built.get(kind, 0) + n
        elif verb in USE_VERBS:
            tile = tiles.get(arg)
            kind = tile[0] if tile else (arg if arg in known else None)
            if kind is not None:
                used[kind] = used.get(kind, 0) + n
    return {"built": built, "used": used}


def play_one(spec: SimSpec, index: int) -> dict:
    """Play game ``index`` of ``spec``; its record.

    ``{"game", "seed", "digest", "scores", "neutral_scores", "winners", "rounds", "decisions",
    "resources": {name: per seat}, "options": {key: count}, "buildings": {"built"|"used": {kind: count}},
    "zones": {zone: per seat sorted items}}`` and the designer figures of ``metrics.GameWatcher``,
    or, if the engine raised, ``{"game", "seed", "digest", "decisions", "error": "Type: message"}``.
    """
    from provost.interpreter.agents import make_agent, play_game
    from provost.interpreter.engine import Game

    from .metrics import GameWatcher

    seed = spec.seed + index
    counts: dict[str, int] = {}

    checker = watcher = None

    def before(game, player):
        watcher.before(game, player)

    def after(game, player, option):
        k = option_key(option)
        counts[k] = counts.get(k, 0) + 1
        watcher.after(game, player, k)
        if checker is not None:
            checker.check(game)

    game = None
    try:
        game = Game.new(spec.rules, players=spec.players, seed=seed)
        if spec.check_invariants:
            from provost.interpreter.invariants import InvariantChecker
            checker = InvariantChecker(game)
            checker.check(game)
        # Neutral seats (labelled NEUTRAL) never decide: the rules play them.
        agents = [make_agent(name, seed, seat) for seat, name in enumerate(spec.agents[:spec.players])]
        watcher = GameWatcher(game)
        play_game(game, agents, before=before, after=after)
        return {"game": index, "seed": seed, "digest": spec.rules.digest, **game.result(),
                "resources": _resources(game), "options": counts, "buildings": _buildings(game, counts),
                "zones": _player_zones(game), **watcher.record()}
    except Exception as exc:  # noqa: BLE001 - an engine or agent bug, reported in the sim's errors
        return {"game": index, "seed": seed, "digest": spec.rules.digest,
                "decisions": game.s.decisions if game is not None else 0,
                "error": "%s: %s" % (type(exc).__name__, exc)}


def play_batch(spec: SimSpec, start: int, count: int) -> list[dict]:
    return [play_one(spec, i) for i in range(start, start + count)]


def make_tasks(specs: Sequence[SimSpec], games: int, jobs: int, chunk: int | None = None) -> Iterator[Task]:
    """Contiguous game ranges, interleaved between the specs (so a compare advances both sides evenly).

    Batches amortise the inter-process cost (ecosystem notes section 5.1); about eight per
    job, at most 10 games, keep the progress bar moving and the loss on Ctrl-C small.  The
    tasks are made as the backend takes them: a sim of 10**12 games starts at once, in the
    memory of a small one.
    """
    if chunk is None:
        chunk = max(1, min(10, math.ceil(games / (max(jobs, 1) * 8))))
    for start in range(0, games, chunk):
        for k in range(len(specs)):
            yield k, start, min(chunk, games - start)


IN_FLIGHT_PER_WORKER = 4
"""A pool holds at most this many tasks per worker submitted and not finished; the next task is
submitted when one finishes.  Submitting every task at once held a future per task (gigabytes
for a long sim, made before the first game, with Ctrl-C held back meanwhile)."""


# ------------------------------------------------------------------ local processes
_WORKER_SPECS: Sequence[SimSpec] | None = None


def _init_worker(specs: Sequence[SimSpec]) -> None:
    """Pool initializer: keep the rules for this worker's life; leave Ctrl-C to the parent."""
    global _WORKER_SPECS
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_SPECS = specs


def _pool_task(spec_index: int, start: int, count: int) -> tuple[int, list[dict], float]:
    """A batch in a worker: (spec index, records, CPU seconds the worker spent on it)."""
    t = time.process_time()
    records = play_batch(_WORKER_SPECS[spec_index], start, count)
    return spec_index, records, time.process_time() - t


def _mp_context():
    """An explicit start method (never the platform default): forkserver where it exists, else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        # Workers fork from a server that has already imported the engine (if it is not running yet).
        ctx.set_forkserver_preload(["provost.tools.sim.runner", "provost.interpreter.engine", "provost.interpreter.agents"])
        return ctx
    return multiprocessing.get_context("spawn")


def _terminate_pool(executor) -> None:
    """Stop a ProcessPoolExecutor now: cancel pending work, terminate the workers, wait for them."""
    _quiet_pool_threads()
    procs = list((getattr(executor, "_processes", None) or {}).values())
    thread = getattr(executor, "_executor_manager_thread", None)     # shutdown() forgets it
    results = getattr(executor, "_result_queue", None)                # and this
    executor.shutdown(wait=False, cancel_futures=True)
    if hasattr(executor, "terminate_workers"):  # Python 3.14+
        try:
            executor.terminate_workers()
        except Exception:  # noqa: BLE001 - already stopped
            pass
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(5)
        if p.is_alive():
            p.kill()
            p.join(1)
    # A worker stopped while it wrote a result leaves part of a message in the results pipe: the
    # manager thread waits for the rest forever (this process holds the pipe's writing end too),
    # and the interpreter waits for that thread at exit (seen: a test run hung after its summary).
    # Closing the writing end here, where no worker is left to write, gives it end-of-file: it
    # takes the pool as broken and ends.
    writer = getattr(results, "_writer", None)
    if writer is not None:
        try:
            writer.close()
        except OSError:
            pass
    # concurrent.futures wakes every pool's manager thread at exit through a pipe that is closed
    # by now ("Exception ignored ... Bad file descriptor"): this pool is gone, forget it there.
    import concurrent.futures.process as cfp
    wakeups = getattr(cfp, "_threads_wakeups", None)
    if thread is not None and wakeups is not None:
        try:
            del wakeups[thread]
        except KeyError:
            pass


def _quiet_pool_threads() -> None:
    """The pool's manager thread may fail writing to workers being terminated (EBADF, a broken
    pipe): that is the stop we asked for, not an error to print (1 Ctrl-C in 20 printed one)."""
    previous = threading.excepthook

    def hook(args):
        if type(args.thread).__name__ != "_ExecutorManagerThread":
            previous(args)
    threading.excepthook = hook


class _SigintSwapped:
    """SIGINT handled by ``handler`` inside the block, its handler before given back after.
    Outside the main thread (where handlers cannot be set) nothing changes."""

    def __init__(self, handler):
        self._handler = handler

    def __enter__(self):
        try:
            self._old = signal.signal(signal.SIGINT, self._handler)
            self._swapped = True
        except ValueError:  # not the main thread
            self._swapped = False
        return self

    def __exit__(self, *exc):
        if self._swapped:
            # (None: a handler set outside Python, which cannot be set again: Python's default)
            signal.signal(signal.SIGINT, self._old if self._old is not None else signal.default_int_handler)
        return False


class _SigintIgnored(_SigintSwapped):
    """While cleaning up after a Ctrl-C, a second Ctrl-C must not cut the cleanup (or print a traceback)."""

    def __init__(self):
        super().__init__(signal.SIG_IGN)


class _SigintDeferred:
    """Ctrl-C held back while the pool starts its processes, delivered when it has.

    The processes started meanwhile (the forkserver, the workers) inherit the blocked signal and
    so never see the terminal's Ctrl-C: without this, one arriving while the forkserver was still
    importing killed it with a traceback.  The parent then receives it and stops the pool.
    """

    def __enter__(self):
        self.blocked = hasattr(signal, "pthread_sigmask")
        if self.blocked:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        return self

    def __exit__(self, *exc):
        if self.blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        return False


class _SigintAsStop(_SigintSwapped):
    """Ctrl-C while the pool works only sets ``requested``; the loop reads it between waits and
    raises KeyboardInterrupt itself, outside any lock.

    Raised wherever the signal landed, a KeyboardInterrupt could cut ``concurrent.futures.wait``
    while it took the futures' locks one by one: the ones taken stayed held, the pool's manager
    thread blocked on one while the pool stopped, and the interpreter waited for that thread at
    exit (seen: 1 interrupted sim in 20 on a busy machine printed its report and never ended).
    Where SIGINT is ignored (a job started in the background) it stays ignored.
    """

    requested = False

    def __init__(self):
        ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        super().__init__(signal.SIG_IGN if ignored else self._request)

    def _request(self, signum, frame):
        self.requested = True


#: How often the pool's loop looks for a Ctrl-C while no batch ends (seconds).
_INTERRUPT_POLL_S = 0.2


class LocalBackend:
    name = "local"

    def __init__(self, jobs: int = 1):
        self.jobs = max(1, jobs)
        self.cpu_s = 0.0
        """CPU seconds spent playing (in this process, or summed over the workers): for benchmarks."""

    def run(self, specs: Sequence[SimSpec], tasks: Iterable[Task], on_result: OnResult) -> None:
        if self.jobs == 1:
            for k, start, count in tasks:
                for i in range(start, start + count):
                    t = time.process_time()
                    record = play_one(specs[k], i)
                    self.cpu_s += time.process_time() - t
                    on_result(k, [record])
            return
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        tasks = iter(tasks)
        window = self.jobs * IN_FLIGHT_PER_WORKER
        first = list(itertools.islice(tasks, window))
        # Never more workers than tasks (--jobs 1000 for 3 games starts 3 processes).
        executor = ProcessPoolExecutor(max_workers=min(self.jobs, len(first)) or 1, mp_context=_mp_context(),
                                       initializer=_init_worker, initargs=(list(specs),))
        clean = False
        try:
            with _SigintAsStop() as ctrl_c:
                with _SigintDeferred():
                    pending = {executor.submit(_pool_task, *task) for task in first}
                while pending:
                    if ctrl_c.requested:
                        raise KeyboardInterrupt
                    done, pending = wait(pending, timeout=_INTERRUPT_POLL_S, return_when=FIRST_COMPLETED)
                    for fut in done:  # any order: the report does not depend on it
                        k, records, cpu = fut.result()
                        self.cpu_s += cpu
                        on_result(k, records)
                    for task in itertools.islice(tasks, window - len(pending)):
                        pending.add(executor.submit(_pool_task, *task))
            clean = True
        finally:
            if clean:
                executor.shutdown(wait=True)
            else:
                with _SigintIgnored():
                    _terminate_pool(executor)


# ------------------------------------------------------------------ Ray
class RayUnavailable(RuntimeError):
    """``--backend ray`` without Ray installed, or with no Ray cluster at the address given."""


def _ray_task(specs, spec_index: int, start: int, count: int) -> tuple[int, list[dict]]:
    return spec_index, play_batch(specs[spec_index], start, count)


class RayBackend:
    """Batches as Ray tasks.  Results are records, so they are identical to the local backend's.

    ``address``: ``None`` starts (or joins, with ``RAY_ADDRESS``) a local Ray; ``"auto"`` or
    ``"ray://host:10001"`` connect to a cluster, whose nodes need provost installed (the rules
    themselves travel with the job).  If Ray is already initialised (tests, notebooks) it is used
    as it is and left running.
    """

    name = "ray"

    def __init__(self, address: str | None = None, jobs: int | None = None):
        self.address, self.jobs = address, jobs

    @staticmethod
    def import_ray(address: str | None = None):
        """Ray, imported for a local instance (``address`` None) or a cluster.  A local instance
        started by provost keeps Ray's token authentication (other local users cannot submit work
        to it); saying so before Ray is imported (it reads the mode once) silences its notice."""
        if address is None and "ray" not in sys.modules:
            # Only before Ray's first import: set later, the local instance's processes would
            # read it while this one had already read another mode.
            os.environ.setdefault("RAY_AUTH_MODE", "token")
        try:
            import ray
        except ImportError:
            raise RayUnavailable("the ray backend needs Ray: pip install 'provost[ray]' (or pip install ray)") from None
        return ray

    def _check_reachable(self) -> None:
        """A ``host:port`` that nobody listens on is said at once (Ray itself retries for minutes)."""
        import socket
        host, sep, port = (self.address or "").rpartition(":")
        if not sep or "://" in self.address or not port.isdigit():
            return
        try:
            socket.create_connection((host, int(port)), timeout=3).close()
        except OSError as e:
            raise RayUnavailable("no Ray cluster at %r (%s); start one with 'ray start --head', or leave out "
                                 "--address to run a local Ray" % (self.address, e.strerror or e)) from None

    def run(self, specs: Sequence[SimSpec], tasks: Sequence[Task], on_result: OnResult) -> None:
        ray = self.import_ray(self.address)
        started = False
        if not ray.is_initialized():
            # Workers run the driver's Python, where provost is installed: no runtime
            # environment to build (it cost 0.7 s a run).  Nothing on the dashboard or the log.
            kwargs = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
            if self.address:
                kwargs["address"] = self.address
                self._check_reachable()
            elif self.jobs:
                kwargs["num_cpus"] = self.jobs
            try:
                ray.init(**kwargs)
            except ConnectionError as e:
                raise RayUnavailable("no Ray cluster at %r (%s); start one with 'ray start --head', or leave out "
                                     "--address to run a local Ray" % (self.address, str(e).split(".")[0])) from None
            started = True
        remote = ray.remote(_ray_task).options(num_cpus=1, max_retries=0)
        pending: list = []
        clean = False
        try:
            specs_ref = ray.put(list(specs))
            tasks = iter(tasks)
            # As many tasks in flight as the cluster has CPUs, times IN_FLIGHT_PER_WORKER: enough to
            # keep it busy, never a reference per task of a long sim.
            cpus = int((ray.cluster_resources() or {}).get("CPU", 0)) or (self.jobs or 1)
            window = max(16, cpus * IN_FLIGHT_PER_WORKER)
            pending = [remote.remote(specs_ref, *task) for task in itertools.islice(tasks, window)]
            while pending:
                # Several at a time (or what is ready within half a second): one wait per task is
                # quadratic in the number of tasks.
                done, pending = ray.wait(pending, num_returns=min(16, len(pending)), timeout=0.5)
                for ref in done:
                    k, records = ray.get(ref)
                    on_result(k, records)
                pending += [remote.remote(specs_ref, *task) for task in itertools.islice(tasks, window - len(pending))]
            clean = True
        finally:
            if not clean:
                with _SigintIgnored():
                    for ref in pending:
                        try:
                            ray.cancel(ref, force=True)
                        except Exception:  # noqa: BLE001 - finished or already gone
                            pass
            if started:
                with _SigintIgnored():
                    ray.shutdown()


def make_backend(name: str, jobs: int = 1, address: str | None = None):
    if name == "ray":
        return RayBackend(address=address, jobs=jobs if jobs > 1 else None)
    return LocalBackend(jobs)


def stderr_is_tty() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
