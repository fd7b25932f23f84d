"""Parameter studies: many runs of one netlist on dask.distributed, one table row per run.

A study is a list of runs, each a dict of parameter values (numbers in SI, or strings
with a unit: ``"250 bar"``): :func:`grid` (full factorial), :func:`zipped`,
:func:`latin_hypercube` and :func:`monte_carlo` build them. :func:`sweep` runs them on a
dask cluster (a local one of worker processes by default, or any scheduler) and returns a
pandas DataFrame: the parameters, the outputs asked for, the status, the error message
and the wall time of every run. A failed run is a row with its error, never a failed
study; rows are appended to ``rows.jsonl`` in the output folder as they complete, so an
interrupted study, started again with the same folder, runs only what is missing.
"""

from __future__ import annotations

import array
import collections
import contextlib
import fcntl
import functools
import hashlib
import itertools
import json
import logging
import math
import os
import re
import stat
import signal
import socket
import statistics
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, Sized

import numpy as np

from .model import InputError, Library, Result, SimulationFailed

# ---------------------------------------------------------------------------------------
# Designs: which runs a study makes


def linspace(start: float, stop: float, count: int, unit: str = "") -> list:
    """``count`` evenly spaced values from ``start`` to ``stop`` (both included), in ``unit``."""
    return [_with_unit(float(v), unit) for v in np.linspace(start, stop, int(count))]


class Design:
    """Runs made one at a time as a study takes them, for studies too large to hold: the
    count is known (``len()``), the runs are not held, and each iteration makes them again,
    the same ones. What ``lazy=True`` gives from :func:`grid`, :func:`zipped`,
    :func:`latin_hypercube` and :func:`monte_carlo` (10^7 runs held as dicts took 4.3 GB)."""

    def __init__(self, count: int, make: Callable[[], Iterator[dict]]):
        self._count = count
        self._make = make

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[dict]:
        return self._make()


def grid(parameters: Mapping[str, Sequence[Any]], lazy: bool = False) -> list[dict] | Design:
    """Full factorial: every combination of the listed values (the last parameter varies
    fastest). ``lazy``: a :class:`Design` that makes them as the study takes them."""
    names = list(parameters)
    values = [list(parameters[n]) for n in names]
    design = Design(math.prod(len(v) for v in values),
                    lambda: (dict(zip(names, combo)) for combo in itertools.product(*values)))
    return design if lazy else list(design)


def zipped(parameters: Mapping[str, Sequence[Any]], lazy: bool = False) -> list[dict] | Design:
    """The k-th run takes the k-th value of every list (the lists must be of one length).
    ``lazy``: a :class:`Design` that makes them as the study takes them."""
    lengths = {name: len(values) for name, values in parameters.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"zipped parameters need lists of one length, got {lengths}")
    names = list(parameters)
    design = Design(next(iter(lengths.values()), 0),
                    lambda: (dict(zip(names, combo)) for combo in zip(*(parameters[n] for n in names))))
    return design if lazy else list(design)


@dataclass(frozen=True)
class Uniform:
    """Uniform on [low, high], in ``unit``."""
    low: float
    high: float
    unit: str = ""

    def quantile(self, u: np.ndarray) -> np.ndarray:
        return self.low + (self.high - self.low) * u


@dataclass(frozen=True)
class Normal:
    """Normal with this mean and standard deviation, in ``unit`` (a tolerance: mean ± 3 std)."""
    mean: float
    std: float
    unit: str = ""

    def quantile(self, u: np.ndarray) -> np.ndarray:
        dist = statistics.NormalDist(self.mean, self.std)
        return np.array([dist.inv_cdf(float(min(max(p, 1e-12), 1 - 1e-12))) for p in u])


@dataclass(frozen=True)
class LogNormal:
    """Log-normal: ln of the value is normal around ln(median) with standard deviation ``sigma``."""
    median: float
    sigma: float
    unit: str = ""

    def quantile(self, u: np.ndarray) -> np.ndarray:
        return self.median * np.exp(Normal(0.0, self.sigma).quantile(u))


def latin_hypercube(distributions: Mapping[str, Any], count: int, seed: int, lazy: bool = False) -> list[dict] | Design:
    """``count`` runs, each parameter's range cut into ``count`` strata of equal probability
    and each stratum sampled once (McKay, Beckman & Conover 1979), independently shuffled
    per parameter. The same seed gives the same runs. ``lazy``: a :class:`Design` that
    holds the samples' probabilities (8 bytes a parameter and run) and makes the runs as
    the study takes them."""
    rng = np.random.default_rng(seed)
    probabilities = {name: (rng.permutation(count) + rng.random(count)) / count for name in distributions}
    design = _sampled(distributions, probabilities)
    return design if lazy else list(design)


def monte_carlo(distributions: Mapping[str, Any], count: int, seed: int, lazy: bool = False) -> list[dict] | Design:
    """``count`` independent random runs (the same seed gives the same runs). ``lazy``: as
    for :func:`latin_hypercube`."""
    rng = np.random.default_rng(seed)
    design = _sampled(distributions, {name: rng.random(count) for name in distributions})
    return design if lazy else list(design)


def _sampled(distributions: Mapping[str, Any], probabilities: Mapping[str, np.ndarray]) -> Design:
    """The runs whose k-th value of each parameter is its distribution's quantile at its
    k-th probability. The quantiles are taken a block at a time as the runs are made
    (Normal's is a Python loop: all at once, its floats for 10^7 runs took 320 MB)."""
    names = list(distributions)
    count = len(next(iter(probabilities.values()), ()))
    block = 4096

    def make() -> Iterator[dict]:
        for start in range(0, count, block):
            columns = [[_with_unit(float(v), distributions[n].unit)
                        for v in distributions[n].quantile(probabilities[n][start:start + block])] for n in names]
            yield from (dict(zip(names, values)) for values in zip(*columns))

    return Design(count, make)


def _with_unit(value: float, unit: str):
    # repr() keeps every digit: the run sees exactly the sampled number.
    return f"{value!r} {unit}" if unit else value


_QUANTITY = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")


def split_quantity(value: Any) -> tuple[Any, str]:
    """(number, unit) of a parameter value as given: 250 -> (250.0, ""), "250 bar" -> (250.0, "bar")."""
    if isinstance(value, str):
        match = _QUANTITY.match(value)
        if match and (not match.group(2) or match.group(2)[0].isalpha() or match.group(2)[0] in "%°µ"):
            return float(match.group(1)), match.group(2)
        return value, ""
    return float(value), ""


# ---------------------------------------------------------------------------------------
# Outputs: what each run reports

STATISTICS = ("final", "initial", "min", "max", "mean", "absmax", "tmin", "tmax", "integral", "integral_square",
              "overshoot", "settling")
# The band around the final value that :func:`output_value`'s ``settling`` time ends in:
# 2 % of the move from the initial value, the usual definition for step responses.
SETTLING_BAND = 0.02


def output_value(spec: str | Callable, result: Result) -> dict[str, Any]:
    """The figure(s) ``spec`` asks of one run, by column name.

    - ``"load.x"`` or ``"load.x:final"``: the last recorded value; ``:initial``, ``:min``,
      ``:max``, ``:absmax``, ``:mean`` (time average, trapezoidal), ``:tmin`` / ``:tmax``
      (the time of the extremum). These are over the recorded rows (the output times and
      the rows at events), not between them: a peak between two rows reads low, and its
      time is a row's, up to one output interval off. A smaller ``output_interval`` in
      the study's ``solver`` settings gives finer ones (README: "Parameter studies").
    - ``:integral`` and ``:integral_square``: the integrals of the value and of its square
      over the run (trapezoidal, over the recorded rows; an error signal's
      ``integral_square`` is its ISE).
    - ``:overshoot``: how far the value goes past its final value, as a fraction of its
      move from the initial value (0 when it never does; NaN when it does not move);
      ``:settling``: the time after which it stays within SETTLING_BAND of that move around
      its final value.
    - ``"wall_time"``: the run's wall time (s); ``"summary:statistics.steps"``,
      ``"summary:monitors.NAME.max_abs"``, ``"summary:events"`` (a list gives its length):
      any figure of summary.json.
    - a function of the :class:`Result`: its value, or a dict of named values.
    """
    if callable(spec):
        value = spec(result)
        if isinstance(value, Mapping):
            return {str(k): v for k, v in value.items()}
        return {_output_name(spec): value}
    if spec == "wall_time":
        return {spec: result.wall_time_s}
    if spec.startswith("summary:"):
        node: Any = result.summary
        for key in spec[len("summary:"):].split("."):
            if isinstance(node, Mapping) and key in node:
                node = node[key]
            else:
                raise KeyError(f"output '{spec}': summary.json has no '{key}' there")
        return {spec: len(node) if isinstance(node, list) else node}
    variable, _, stat = spec.rpartition(":") if ":" in spec else (spec, "", "final")
    if stat not in STATISTICS:
        raise KeyError(f"output '{spec}': unknown statistic '{stat}' (one of {', '.join(STATISTICS)})")
    values, t = result[variable], result.time
    if len(values) == 0:
        return {spec: math.nan}
    figure = {
        "final": lambda: values[-1],
        "initial": lambda: values[0],
        "min": lambda: np.min(values),
        "max": lambda: np.max(values),
        "absmax": lambda: np.max(np.abs(values)),
        "mean": lambda: (np.trapz(values, t) / (t[-1] - t[0])) if t[-1] > t[0] else values[0],
        "tmin": lambda: t[int(np.argmin(values))],
        "tmax": lambda: t[int(np.argmax(values))],
        "integral": lambda: np.trapz(values, t),
        "integral_square": lambda: np.trapz(np.square(values), t),
        "overshoot": lambda: _overshoot(values),
        "settling": lambda: _settling_time(values, t),
    }[stat]()
    return {spec: float(figure)}


def _overshoot(values: np.ndarray) -> float:
    move = values[-1] - values[0]
    if move == 0:
        return math.nan
    beyond = (values - values[-1]) / move  # > 0: past the final value, in the move's direction
    return max(0.0, float(np.max(beyond)))


def _settling_time(values: np.ndarray, t: np.ndarray) -> float:
    band = SETTLING_BAND * abs(values[-1] - values[0])
    outside = np.flatnonzero(np.abs(values - values[-1]) > band)
    # The row after the last one outside the band (the value may cross it between the two).
    return float(t[0] if outside.size == 0 else t[min(outside[-1] + 1, len(t) - 1)])


def _output_name(spec: str | Callable) -> str:
    """An output's column: the spec, or a function's name (a function returning a dict
    names its own columns)."""
    return spec if isinstance(spec, str) else getattr(spec, "__name__", "output")


# ---------------------------------------------------------------------------------------
# One run, on a worker


@functools.lru_cache(maxsize=4)
def _loaded(text: str, file: str, plugins: tuple[str, ...], allow_plugins: bool):
    # A worker process keeps the last few models it loaded: loading is the costly part of a
    # short run, and a model serves every run of a study (runs differ in their Context).
    return Library(plugins).load(text, file=file, allow_plugins=allow_plugins)


def run_one(index: int, values: Mapping[str, Any], netlist_text: str, netlist_file: str, plugins: tuple[str, ...],
            allow_plugins: bool,
            outputs: Sequence[str | Callable], solver: Mapping[str, Any], t_end: float | None,
            initial_names: frozenset[str]) -> dict:
    """Runs one point of a study and returns its row. Never raises for a property of the
    model or of the values: a bad value, a failed run or a failing output function is the
    row's status and error."""
    # The row carries its values: the study's table is made from its rows, and a resumed
    # study checks that its runs are those of the rows in its folder.
    row: dict[str, Any] = {"run": index, "values": dict(values)}
    started = time.perf_counter()
    status, error, result = "finished", "", None
    try:
        model = _loaded(netlist_text, netlist_file, plugins, allow_plugins)
        parameters = {k: v for k, v in values.items() if k not in initial_names}
        initial = {k: v for k, v in values.items() if k in initial_names}
        result = model.run(parameters, initial=initial, solver=solver, t_end=t_end, report=False)
    except SimulationFailed as failed:
        status, error, result = "failed", str(failed), failed.result
    except Exception as exc:  # bad input for this point: its row says why
        status, error = "error", f"{type(exc).__name__}: {exc}"
    for spec in outputs:
        try:
            if result is None or status != "finished":
                raise LookupError("no finished run")
            row.update(output_value(spec, result))
        except LookupError:
            row[_output_name(spec)] = math.nan
        except Exception as exc:
            row[_output_name(spec)] = math.nan
            if status == "finished":
                status, error = "error", f"output {_output_name(spec)}: {type(exc).__name__}: {exc}"
    row["status"] = status
    row["error"] = error
    row["wall_time_s"] = time.perf_counter() - started
    row["worker"] = f"{socket.gethostname()}:{os.getpid()}"
    return row


def run_batch(points: Sequence[tuple[int, Mapping[str, Any]]], **common) -> list[dict]:
    """Several points of a study in one task (short runs: see _dispatch)."""
    return [run_one(index, values, **common) for index, values in points]


# ---------------------------------------------------------------------------------------
# The study

# How long one task should run at most: long enough that dask's own cost per task (a few
# milliseconds of scheduling and transfer, on the client, the scheduler and the worker) is
# small beside it, short enough that rows still come in steadily and a lost worker loses
# little. Tasks are shorter than this as a study nears its end (see _Placement).
TASK_SECONDS = 1.0
# The most runs in one task, whatever their length.
TASK_RUNS = 64


def _submit(client, *args, **kwargs):
    """client.submit, without dask's capture of the submitting code's source.

    For its dashboard, dask records the source of the user code that submits each task
    (Client._get_computation_code). inspect looks it up through a scan of sys.modules at
    every call: 0.7 ms of the client's time per task here, and the client shares the
    machine with the workers. Skipping every module makes dask record "<Code not
    available>" at once; on two cores, 64 position_servo runs took 236 ms instead of 244
    (medians of ten studies)."""
    import dask
    with dask.config.set({"distributed.diagnostics.computations.ignore-modules": [".*"]}):
        return client.submit(*args, **kwargs)


@dataclass
class _WorkerLoad:
    tasks: int = 0                  # tasks it holds
    runs: int = 0                   # runs in them
    busy_since: float = 0.0         # when it began the first of them (estimated)
    run_times: list = field(default_factory=list)  # its own runs' wall times


class _Placement:
    """How many runs each worker gets, from the run times seen so far: the bookkeeping of
    _dispatch, in seconds of a monotonic clock, without dask (test_study.py drives it).

    The aim is that every worker finishes at the same time. Each worker is busy from some
    moment on with the runs it holds, at its own median run time τ; the runs not yet placed
    are shared out so that all end together (water filling: the common end T solves
    Σ max(0, T - start_w) / τ_w = runs left), and a worker asking for work gets its part
    (T - start_w) / τ_w. The clock matters: on two cores a task's round trip through the
    scheduler takes one or two runs of 7 ms, so a worker whose last rows are late has done
    more than its count of held runs says. Counting runs only had left 64 position_servo
    runs split 33/31 in most studies.

    The moments are estimates: a task placed on an idle worker starts half an overhead
    after it is placed, and a worker that returns a task while holding others goes on with
    them half an overhead before its rows arrive, where the overhead of a task is its
    round trip less its runs' time (the median of the tasks placed on idle workers)."""

    def __init__(self, runs: int = 0):
        self.left = runs  # runs not yet placed
        self.loads: dict[Any, _WorkerLoad] = {}
        self.run_times: list[float] = []
        self.overheads: list[float] = []

    def more(self, runs: int) -> None:
        """Notes runs to place: taken from the study's runs, or back from a lost task."""
        self.left += runs

    def join(self, worker: Any) -> None:
        self.loads.setdefault(worker, _WorkerLoad())

    def leave(self, worker: Any) -> None:
        """Forgets a worker that left the cluster (its tasks returned or lost): it would
        otherwise keep a share of the runs that no worker asks for."""
        self.loads.pop(worker, None)

    def _half_overhead(self) -> float:
        return statistics.median(self.overheads[-16:]) / 2 if self.overheads else 0.0

    def run_time(self, worker: Any) -> float | None:
        # A worker's own median once it has run enough to say (its first run is often
        # twice as slow as the next ones: caches, and the client busy placing tasks).
        own = self.loads[worker].run_times[-16:]
        seen = own if len(own) >= 8 else self.run_times[-64:]
        return max(statistics.median(seen), 1e-6) if seen else None

    def placed(self, worker: Any, runs: int, now: float) -> tuple[float, bool]:
        """Notes a task of ``runs`` placed on ``worker``; returns what returned() needs."""
        load = self.loads[worker]
        idle = load.tasks == 0
        if idle:
            load.busy_since = now + self._half_overhead()
        load.tasks += 1
        load.runs += runs
        self.left -= runs
        return now, idle

    def returned(self, worker: Any, runs: int, run_times: Sequence[float], placed_at: float, was_idle: bool,
                 now: float) -> None:
        load = self.loads.get(worker)
        if load is None:  # a worker that left: its last rows came in after it was gone
            self.run_times.extend(run_times)
            return
        load.tasks -= 1
        load.runs -= runs
        load.run_times.extend(run_times)
        self.run_times.extend(run_times)
        if was_idle and len(run_times) == runs:
            self.overheads.append(max(0.0, now - placed_at - sum(run_times)))
        if load.tasks:
            load.busy_since = now - self._half_overhead()

    def share(self, worker: Any, now: float) -> float | None:
        """The runs ``worker`` should take now so that every worker ends together (None
        before any run time is known)."""
        if self.run_time(worker) is None:
            return None
        soonest = now + self._half_overhead()
        starts, rates = {}, {}
        for w, load in self.loads.items():
            tau = self.run_time(w)
            free_at = load.busy_since + load.runs * tau if load.tasks else now
            starts[w], rates[w] = max(free_at, soonest), 1.0 / tau
        # Water filling: open the workers in the order they come free until the common end
        # T leaves none of the open ones a negative part.
        order = sorted(starts, key=starts.get)
        weight = offset = 0.0
        end = math.inf
        for k, w in enumerate(order):
            weight += rates[w]
            offset += starts[w] * rates[w]
            end = (self.left + offset) / weight
            if k + 1 == len(order) or end <= starts[order[k + 1]]:
                break
        return max(0.0, (end - starts[worker]) * rates[worker])

    def next_task(self, worker: Any, now: float) -> int:
        """The runs of the next task for ``worker``, which has just returned one (or
        joined), or 0 for none now. A worker that holds nothing always gets a task; one
        that holds a task gets a second while its share is a run or more, or when what is
        left would otherwise wait (no other worker holds two tasks, so none will ask
        before it runs dry). The task holds the worker's share, at most TASK_SECONDS of
        runs; a single run while no run time is known (the first rows size the rest)."""
        load = self.loads[worker]
        if self.left <= 0 or load.tasks >= 2:
            return 0
        share = self.share(worker, now)
        if share is None:
            return 1
        if load.tasks == 1 and share < 1 and any(other.tasks >= 2 for w, other in self.loads.items() if w != worker):
            return 0
        cap = max(1, min(TASK_RUNS, int(TASK_SECONDS / self.run_time(worker))))
        return max(1, min(cap, round(share), self.left))


# A run whose worker process died while running it runs again by itself on another
# worker; when that one dies too, the run is an error row: the crash is its own (a plugin
# or an FMU that segfaults on its values), not a neighbour's in the same task.
RUN_DEATHS = 2
# How often the study looks at the cluster when no rows come in: workers that joined get
# work, and the tasks of workers that left are run again.
LOOK_SECONDS = 1.0
# How long the study's own local cluster may be without any worker, although the study
# starts again those it lost, before the study gives up: a worker process starts in a few
# seconds, 5 s on two cores busy with a build; one that cannot start at all would
# otherwise leave the study waiting for good.
WORKERLESS_SECONDS = 120.0


@dataclass
class _Task:
    future: Any
    batch: list                     # its points: (index, values)
    address: Any                    # the worker it was placed on
    placed_at: float
    was_idle: bool


class _WorkerLost(Exception):
    """A task's worker died or left the cluster before its rows came back."""


def _dispatch(client, task: Callable, points: Iterator[tuple[int, dict]], digest: str, log: "_RowLog",
              report: Callable[[], None], cluster: Any = None, plan: "_Placement | None" = None) -> None:
    """Runs ``points``, taken from the iterator as the workers need them (the study holds
    a window of two full tasks a worker, not its runs), recording each row as its task
    completes and calling ``report()`` then.

    Each worker starts with two tasks, of one run and of two: the run times they report
    size the later tasks, and the second keeps the worker busy while the first one's row
    travels (its round trip through the scheduler took about two runs of 7 ms). From then
    on a worker gets a task when it returns one: its share of what is left (_Placement:
    every worker ending together), in one task of at most TASK_SECONDS of runs; it keeps
    a second task while its share is a run or more. A short study is thus split evenly
    from its first run times, in a few tasks per worker (dask's cost is per task: on two
    cores, halving the share at each task, as guided self-scheduling does, took 64
    position_servo runs from 1.79 to 1.54 times the serial loop); a long one goes in tasks
    of a second, the last of which even out. The price is that runs much longer than the
    median, met late, are not redistributed. The tasks are placed here rather than by the
    scheduler, whose duration estimates cannot know that tasks differ in size.

    A worker process that dies (a plugin or an FMU that crashes, memory exhausted) takes
    its tasks with it. The study runs their points again, each in a task of its own on a
    worker that holds nothing else, so that a point that crashes its worker is found
    among the innocent ones of its task; one whose worker dies RUN_DEATHS times is an error
    row saying so. It does not wait on dask for this: a task placed on a worker is
    restricted to it loosely, and dask (2022.12) never runs such a task again once every
    worker it could run on is gone (it waits for the named worker, which a restarted one
    is not), nor the task whose rows were lost with its worker before they were fetched:
    a study whose workers all died at once waited for good.

    ``cluster``: the study's own local cluster, whose workers it keeps (see
    _restart_lost_workers): dask closes for good a worker whose process it is restarting
    at the wrong moment, and a study whose workers were all closed waited for them for
    good (17 minutes, until ctest was killed). If it has had no worker for
    WORKERLESS_SECONDS all the same, the study ends with TimeoutError (its rows are kept).
    Another cluster's workers come and go as its owner decides: the study waits for them.
    """
    from concurrent.futures import CancelledError

    from dask.distributed import as_completed
    from distributed.scheduler import KilledWorker

    def workers_now() -> set:
        return set(client.scheduler_info().get("workers", {}))

    # A cluster may still be starting its workers (a batch system's jobs come when they
    # come): the study waits for the first one (its own cluster's, WORKERLESS_SECONDS at
    # most) and gives work to each that joins later. (Asked first, as the scheduler
    # usually has them: each question is a round trip of about a millisecond before the
    # first task goes out.)
    addresses = workers_now()
    if not addresses:
        client.wait_for_workers(1, timeout=WORKERLESS_SECONDS if cluster is not None else None)
        addresses = workers_now()
    # A design study's batches share one placement (``plan``): from its second batch on,
    # the run times seen size each worker's tasks at once.
    plan = plan if plan is not None else _Placement()
    for gone in set(plan.loads) - addresses:
        plan.leave(gone)
    for address in sorted(addresses):
        plan.join(address)
    # Keys unique to this call: the same study run again on the same cluster (a resumed
    # or repeated one) never shares a key with its previous call's tasks, which the
    # scheduler may still hold while it forgets them; and a point run again has a key of
    # its own (the serial number).
    call = uuid.uuid4().hex[:12]
    serial = itertools.count()
    # Not as_completed(with_results=True): with Debian's dask and tornado its background
    # gathers can fail inside tornado (an AssertionError in IOStream's write buffer when
    # several share the scheduler's connection), and the future is then never reported:
    # the study waited forever in 2 of 10 runs of tests/bench/bench_sweep.py. Each result
    # is fetched here instead, one at a time.
    running = as_completed()
    placed: dict[str, _Task] = {}
    waiting: collections.deque = collections.deque()  # points taken from `points`, not placed
    suspects: collections.deque = collections.deque()  # points of lost tasks: each runs alone
    deaths: dict[int, list] = {}                      # the workers that died running a point
    alone: set = set()                                # workers running a suspect

    def take_points() -> None:
        # What the workers could take at once: two full tasks each.
        while len(waiting) < 2 * TASK_RUNS * max(1, len(plan.loads)):
            point = next(points, None)
            if point is None:
                return
            waiting.append(point)
            plan.more(1)

    def submit(address: Any, batch: list) -> None:
        future = _submit(client, task, batch, key=f"jourdain-{digest}-{call}-{batch[0][0]}-{batch[-1][0]}-{next(serial)}",
                         pure=False, retries=2, workers=[address], allow_other_workers=True)
        placed[future.key] = _Task(future, batch, address, *plan.placed(address, len(batch), time.monotonic()))
        running.add(future)

    def give_work(address: Any, now: float) -> None:
        if address not in plan.loads or address in alone:
            return
        if suspects:  # only to a worker that holds nothing: then it has nothing else to run
            if plan.loads[address].tasks == 0:
                alone.add(address)
                submit(address, [suspects.popleft()])
            return
        take_points()
        while waiting and (size := plan.next_task(address, now)):
            submit(address, [waiting.popleft() for _ in range(min(size, len(waiting)))])

    def returned(done: _Task, rows: list, now: float) -> None:
        alone.discard(done.address)
        log.extend(rows)
        plan.returned(done.address, len(done.batch), [r["wall_time_s"] for r in rows
                                                       if isinstance(r.get("wall_time_s"), float)
                                                       and math.isfinite(r["wall_time_s"])],
                      done.placed_at, done.was_idle, now)
        report()

    def lost(gone: _Task, now: float) -> None:
        placed.pop(gone.future.key, None)
        gone.future.cancel()
        alone.discard(gone.address)
        plan.returned(gone.address, len(gone.batch), [], gone.placed_at, False, now)
        if len(gone.batch) > 1:
            suspects.extend(gone.batch)
            plan.more(len(gone.batch))
            return
        index, values = gone.batch[0]
        deaths.setdefault(index, []).append(gone.address)
        if len(deaths[index]) < RUN_DEATHS:
            suspects.append(gone.batch[0])
            plan.more(1)
            return
        log.extend([_error_row(index, values, "worker process died while running this point, on "
                               f"{' and on '.join(map(str, deaths.pop(index)))} (a crash in a plugin, an FMU "
                               f"or the solver, or memory exhausted: the worker's log says which)")])
        report()

    seen_workers_at = time.monotonic()

    def look(now: float) -> None:
        """Runs again the tasks of the workers that left, forgets those, and gives work to
        the workers that can take some (those that joined too)."""
        nonlocal seen_workers_at
        present = workers_now()
        if cluster is not None:
            if present:
                seen_workers_at = now
            elif now - seen_workers_at > WORKERLESS_SECONDS:
                raise TimeoutError(f"the study's local cluster has had no worker for {WORKERLESS_SECONDS:.0f} s: "
                                   f"its worker processes could not be started again (dask's log says why); "
                                   f"{log.count} runs done")
            if len(present) < len(cluster.worker_spec):
                _restart_lost_workers(cluster)
        for gone in [t for t in placed.values() if t.address not in present]:
            lost(gone, now)
        for address in set(plan.loads) - present:
            plan.leave(address)
        for address in sorted(present):
            plan.join(address)
            give_work(address, now)

    def rows_of(done: _Task) -> list:
        # A finished task's rows are on its worker until fetched: a worker that dies then
        # takes them along, and dask waits for the task to run again, which it may never
        # do (above). Fetched a second at a time, while the worker is there.
        while True:
            try:
                return done.future.result(timeout=LOOK_SECONDS)
            except TimeoutError:
                if done.address not in workers_now():
                    raise _WorkerLost() from None

    take_points()
    if plan.run_times:
        # A placement that has seen runs (a design study's later batch): each worker gets
        # its share at once.
        for address in list(plan.loads):
            give_work(address, time.monotonic())
    else:
        for size in (1, 2):
            for address in list(plan.loads):
                take_points()
                if waiting:
                    submit(address, [waiting.popleft() for _ in range(min(size, len(waiting)))])
    last_look = time.monotonic()
    while placed or waiting or suspects:
        future = _next_completed(running, LOOK_SECONDS)
        now = time.monotonic()
        done = placed.pop(future.key, None) if future is not None else None
        if done is not None:
            try:
                rows = rows_of(done)
            except (_WorkerLost, KilledWorker, CancelledError):
                # Its worker is gone (work goes to those look() finds): so are the other
                # tasks there, which dask may never report.
                lost(done, now)
                last_look = -math.inf
            except Exception as exc:  # noqa: BLE001 (the task failed as a whole: dask's retries did not help)
                returned(done, [_error_row(index, values, f"{type(exc).__name__}: {exc}")
                                for index, values in done.batch], now)
                give_work(done.address, now)
            else:
                returned(done, rows, now)
                give_work(done.address, now)
        # Asking the scheduler for its workers is a round trip: once a second at most.
        if now - last_look >= LOOK_SECONDS:
            last_look = now
            look(now)
        if not (placed or waiting or suspects):
            take_points()


def _restart_lost_workers(cluster) -> None:
    """Starts again the workers a local cluster has lost for good, so that it has as many
    as it was made with.

    Its nannies start again a worker process that dies, but dask (2022.12) closes a nanny
    for good in two cases that a study whose runs crash their workers meets: the cluster
    closes it when, 15 s (distributed.deploy.lost-worker-timeout) after one of its workers
    left, no worker of its name is there, which is the case when the check falls while
    the nanny restarts the worker after a later crash (5 s on a loaded machine); and the
    scheduler closes a worker, and its nanny with it, when the client cannot fetch a
    result from it. A nanny whose worker process failed to start has no worker either.
    Those are forgotten here and the cluster opens new ones (scale() to its own size)."""
    import asyncio

    from distributed.core import Status

    def restart() -> None:  # on the cluster's event loop, the only one that changes its workers
        for name, nanny in list(cluster.workers.items()):
            process = getattr(nanny, "process", None)
            if nanny.status in (Status.closed, Status.failed):
                del cluster.workers[name]
            elif nanny.status == Status.running and process is not None and process.status == Status.failed:
                del cluster.workers[name]
                closing = asyncio.ensure_future(nanny.close(reason="jourdain-worker-failed-to-start"))
                _CLOSING.add(closing)  # held while it runs: the loop keeps weak references only
                closing.add_done_callback(_CLOSING.discard)
        cluster.scale(len(cluster.worker_spec))

    cluster.loop.add_callback(restart)


_CLOSING: set = set()  # nannies being closed by _restart_lost_workers


def _keeping_nannies():
    """While a study runs on its own local cluster: dask's clusters close the nanny of a
    worker that left the scheduler 15 s before if no worker of its name is there then
    (distributed.deploy.lost-worker-timeout, read as each worker leaves). A nanny
    restarting its worker after a later crash was closed so: a worker lost for good, and
    its place taken by a new one after 5 s on a loaded machine (_restart_lost_workers).
    The nannies restart their workers themselves: the check is put off for the length of
    the study (an hour: each timer holds the closed cluster until it fires, and then does
    nothing)."""
    import dask
    return dask.config.set({"distributed.deploy.lost-worker-timeout": "1h"})


def _next_completed(running, seconds: float):
    """The next future of ``running`` (a dask as_completed) that completes, or None when
    none does within ``seconds``: its own iteration waits for good."""
    deadline = time.monotonic() + seconds
    with running.thread_condition:
        while not running.has_ready() and (left := deadline - time.monotonic()) > 0:
            running.thread_condition.wait(left)
    return next(running) if running.has_ready() else None


def _error_row(index: int, values: Mapping[str, Any], error: str) -> dict:
    """The row of a point that made no row of its own (its task failed or was lost)."""
    return {"run": index, "values": dict(values), "status": "error", "error": error, "wall_time_s": math.nan,
            "worker": ""}


def _study_digest(netlist_text: str, netlist_file: str, outputs: Sequence, solver: Mapping, t_end: float | None) -> str:
    """What makes two studies the same one, but for their runs (resuming one folder with
    another study's rows would mix them). The runs are compared one at a time, with the
    values their rows carry, as the study takes them (_RowLog.was_done): the study does
    not hold them to hash them at once."""
    key = json.dumps({"netlist": netlist_text, "file": netlist_file, "rows": "with their values",
                      "outputs": [_output_name(o) for o in outputs], "solver": solver, "t_end": t_end},
                     sort_keys=True, default=str)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _fingerprint(values: Mapping[str, Any]) -> int:
    """A run's values in 8 bytes, never 0 (_RowLog: not run): as given and as read back
    from rows.jsonl alike."""
    text = json.dumps(values, sort_keys=True, default=_json_default)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little") | 1


class _RowLog:
    """rows.jsonl: one JSON line per finished run, appended and flushed to disk as each run
    completes, so that a study stopped at any moment keeps every row it had.

    A study's memory does not grow with its rows while it runs: with a folder, what it
    keeps of the rows a previous start made is the fingerprint of each one's values (8
    bytes a run), and the rows are read back at the end for the table. Without one, the
    rows are held: they are the study's result."""

    def __init__(self, folder: Path | None, digest: str, description: dict):
        self.path = None
        self.rows: list[dict] = []    # without a folder
        self.count = 0                # runs with a row
        self._before = np.zeros(0, dtype=np.uint64)  # by run: its values' fingerprint, 0 if not run
        if folder is None:
            return
        folder.mkdir(parents=True, exist_ok=True)
        manifest = folder / "study.json"
        self.path = folder / "rows.jsonl"
        if manifest.exists():
            previous = json.loads(manifest.read_text())
            if previous.get("digest") != digest:
                raise self._another_study()
            if self.path.exists():
                self._read_previous_rows()
        manifest.write_text(json.dumps({**description, "digest": digest}, indent=2, default=str) + "\n")

    def _another_study(self, detail: str = "netlist, outputs or solver differ") -> InputError:
        return InputError(f"{self.path.parent}: holds the rows of another study ({detail}); choose another folder "
                          f"or empty this one")

    def _read_previous_rows(self) -> None:
        runs, prints = array.array("q"), array.array("Q")
        with open(self.path, "rb+") as rows:
            whole = 0
            for line in rows:
                if not line.endswith(b"\n"):
                    break  # a row cut short by a crash: that run is made again
                row = json.loads(line)
                runs.append(int(row["run"]))
                prints.append(_fingerprint(row.get("values", {})))
                whole += len(line)
            rows.truncate(whole)
        self._before = np.zeros(max(runs, default=-1) + 1, dtype=np.uint64)
        self._before[np.asarray(runs, dtype=np.int64)] = np.asarray(prints, dtype=np.uint64)
        self.count = int(np.count_nonzero(self._before))

    def was_done(self, index: int, values: Mapping[str, Any]) -> bool:
        """Whether the folder holds the row of this run (a previous start of the study
        made it); refuses a run whose row there has other values."""
        if index >= len(self._before) or not self._before[index]:
            return False
        if int(self._before[index]) != _fingerprint(values):
            raise self._another_study(f"run {index} has other values")
        return True

    def extend(self, rows: Sequence[dict]) -> None:
        self.count += len(rows)
        if self.path is None:
            self.rows.extend(rows)
            return
        if not rows:
            return
        # One write of whole lines, synced: a study killed at any moment leaves whole rows (at
        # worst one torn last line, dropped when the study resumes).
        with open(self.path, "a", encoding="utf-8") as out:
            out.write("".join(json.dumps(row, default=_json_default) + "\n" for row in rows))
            out.flush()
            os.fsync(out.fileno())

    def table(self, runs: int) -> list[dict]:
        """The rows of runs 0 to ``runs`` - 1, in order (read back from the folder)."""
        if self.path is None:
            return sorted(self.rows, key=lambda row: row["run"])
        by_run = {}
        with open(self.path, encoding="utf-8") as lines:
            for line in lines:
                row = json.loads(line)
                if row["run"] < runs:
                    by_run[row["run"]] = row
        return [by_run[index] for index in sorted(by_run)]


def _json_default(value: Any):
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return str(value)


def _netlist_source(netlist: str | os.PathLike | Mapping, file: str | os.PathLike | None) -> tuple[str, str]:
    """The netlist as text and the absolute file it stands for (workers resolve plugins and
    subsystem files from it: the study's folder must be reachable from every worker)."""
    if isinstance(netlist, Mapping):
        return json.dumps(netlist), os.path.abspath(file or "<netlist>.json")
    if isinstance(netlist, str) and netlist.lstrip().startswith("{"):
        return netlist, os.path.abspath(file or "<netlist>.json")
    path = os.path.abspath(os.fspath(netlist))
    # The command line's checks (framework/src/netlist_levels.cpp): a regular file of at
    # most 64 MiB; /dev/zero or a FIFO would be read until memory runs out, or forever.
    try:
        status = os.stat(path)
    except OSError as exc:
        raise InputError(f"{path}: cannot read the netlist: {exc.strerror}") from None
    if not stat.S_ISREG(status.st_mode):
        raise InputError(f"{path}: is not a regular file (a device, a FIFO or a folder): netlists are read from files only")
    if status.st_size > 64 << 20:
        raise InputError(f"{path}: is larger than 64 MiB, the limit for a netlist file")
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the netlist: {getattr(exc, 'strerror', None) or exc}") from None


# The dask settings of the local clusters a study starts (_connect; tests/bench/bench_sweep.py
# uses the same). Each changes a default that costs a study of short runs dearly:
LOCAL_CLUSTER_CONFIG = {
    # The nanny sets MALLOC_TRIM_THRESHOLD_=65536 in the workers' environment, and any such
    # setting turns off glibc's dynamic mmap threshold, so every block over 128 KiB is mapped
    # and unmapped again at each allocation (a 43 ms position_servo run took 56 ms): here the
    # workers keep glibc's defaults, and dask's one thread for numerical libraries.
    "distributed.nanny.pre-spawn-environ": {"OMP_NUM_THREADS": 1, "MKL_NUM_THREADS": 1, "OPENBLAS_NUM_THREADS": 1},
    # The workers' profiler samples their stacks every 10 ms.
    "distributed.worker.profile.enabled": False,
    # With a worker on every core, the scheduler's and nannies' periodic work takes its CPU
    # from the runs: memory checks every second (not 100 ms), system monitors every 5 s (not
    # 500 ms), and no work stealing (_dispatch places every task itself). On the 2-core
    # machine these took 64 position_servo runs from 1.38x to 1.55x the serial loop.
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.scheduler.work-stealing": False,
    # Every process's event loop checks its own health every 20 ms: with five of them
    # (client and scheduler, two nannies, two workers) that took 64 position_servo runs on
    # two workers from 1.66x to 1.70x the serial loop (with tasks of three quarters of the
    # fair share; ten studies each).
    "distributed.admin.tick.interval": "1s",
    # A task whose worker dies fails at once (KilledWorker) rather than being run again by
    # the scheduler on any worker, next to other tasks: the study runs its points again
    # itself, each alone on a worker, to find the one that crashes (_dispatch).
    "distributed.scheduler.allowed-failures": 0,
}


def silence_dask() -> None:
    """Nothing more from dask's loggers in this process (a study being stopped)."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)


def _close(client) -> None:
    """Closes a study's own client and its local cluster, if any.

    The study is over, done or stopped (Ctrl-C), and its rows are on disk: what dask
    logs as it shuts down is noise. Stopped, a cluster with tasks running logs keys it
    could not gather, workers shut down or restarted, connections closed; done, a closing
    cluster sometimes printed a CommClosedError traceback (a worker logs a heartbeat that
    meets the scheduler's connection closed as an error, with its traceback). Its loggers
    are quiet meanwhile, here and, for a local cluster, in the worker processes (told
    first: a round trip of a few milliseconds)."""
    cluster = getattr(client, "cluster", None)
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        if cluster is not None:
            with contextlib.suppress(Exception):
                client.run(silence_dask)
        client.close()
        if cluster is not None:
            cluster.close()
    finally:
        logger.setLevel(level)


def _connect(scheduler: Any, workers: int | None, quiet: bool = False):
    """The dask client of a study, and whether the study owns it (and closes it)."""
    from dask.distributed import Client
    if isinstance(scheduler, Client):
        return scheduler, False
    if scheduler:
        return Client(scheduler), True
    return _local_client(workers, quiet), True


def _local_client(workers: int | None, quiet: bool):
    """A client of a new local cluster whose processes leave the stop signals to this one.

    Ctrl-C in a terminal signals the whole process group, the cluster's worker processes
    too (and a service manager's SIGTERM every process): each printed a KeyboardInterrupt
    traceback or died, and its nanny restarted it, while the study was stopping them
    anyway. A signal mask is inherited by the threads and the processes started while it
    holds, so the cluster is started from a thread that blocks SIGINT, SIGTERM and SIGHUP:
    its event-loop thread and every worker it spawns (a restarted one too) keep them
    blocked, and only this process acts on them, closing the cluster. (Dask stops its
    workers through a queue, then SIGKILL, and a worker whose study process is gone exits
    by itself.) This thread waits meanwhile with the signals open: stopped, it lets the
    start finish, closes the cluster, and goes on stopping; a second signal, left to its
    default action, ends the process at once, even if the start hangs.
    """
    import dask
    from multiprocessing import resource_tracker

    from dask.distributed import Client, LocalCluster

    stop_signals = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    started: dict[str, Any] = {}

    def start() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
        try:
            # multiprocessing's resource tracker process, when it starts, unblocks SIGINT
            # and SIGTERM in the thread that starts it (it ignores them itself, not
            # SIGHUP): it is started first, and the mask set again.
            resource_tracker.ensure_running()
            signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
            # One single-threaded worker process per core: a run holds one core, and
            # processes keep a crashing plugin from taking the study with it. No dashboard;
            # the scheduler's HTTP server (health, metrics) still listens, on any free port:
            # on its default 8787 a second study at once printed that the port was taken.
            # The workers log warnings and errors (errors only, quiet) from their start on:
            # dask's level applies once a worker runs, and before that a worker starting
            # after one was killed said at INFO that it purged the dead one's folder. (Set
            # in the environment the workers are spawned with, where dask reads its logging
            # levels as it is imported; the user's own setting there comes first.)
            level = logging.ERROR if quiet else logging.WARNING
            spawn_environment = {**LOCAL_CLUSTER_CONFIG["distributed.nanny.pre-spawn-environ"],
                                 "DASK_LOGGING__DISTRIBUTED": logging.getLevelName(level).lower()}
            with dask.config.set({**LOCAL_CLUSTER_CONFIG, "distributed.nanny.pre-spawn-environ": spawn_environment}):
                cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                                       processes=True, dashboard_address=None,
                                       scheduler_kwargs={"dashboard_address": ":0"}, silence_logs=level)
            started["client"] = Client(cluster)
        except BaseException as exc:  # noqa: BLE001 (handed to the study's thread)
            started["error"] = exc

    thread = threading.Thread(target=start, name="jourdain: local cluster start", daemon=True)
    thread.start()
    try:
        thread.join()
    except BaseException:
        thread.join()
        if "client" in started:
            _close(started["client"])
        raise
    if "error" in started:
        raise started["error"]
    return started["client"]


def sweep(netlist: str | os.PathLike | Mapping, runs: Iterable[Mapping[str, Any]],
          outputs: Sequence[str | Callable] = ("wall_time",), *, output_dir: str | os.PathLike | None = None,
          scheduler: Any = None, workers: int | None = None, solver: Mapping[str, Any] | None = None,
          t_end: float | None = None, plugins: Iterable[str] = (), allow_plugins: bool = False,
          file: str | os.PathLike | None = None,
          progress: Callable[[int, int | None], None] | None = None, quiet: bool = False):
    """Runs ``netlist`` once per entry of ``runs`` on dask.distributed and returns a pandas
    DataFrame with one row per run (in the order of ``runs``).

    ``runs`` is taken as the workers need it: a list, a lazy design (``grid(...,
    lazy=True)``) or any iterable, a generator too, whose runs are never all held.
    ``scheduler``: None for a local cluster of ``workers`` processes (default: one per core),
    a scheduler address (``"tcp://host:8786"``) or a ``dask.distributed.Client``. With
    ``output_dir`` the rows go to ``rows.jsonl`` as they complete, and ``sweep.csv`` and
    ``sweep.html`` are written at the end; a folder that already holds part of this same
    study is resumed (finished runs are not run again), and a folder another study is
    using is refused. ``progress(done, total)`` is called as rows come in (``total`` is
    None while the count of an iterable without ``len()`` is unknown). ``quiet``: a local
    cluster logs errors only (not dask's warnings, such as a worker restarted).

    Stopped (Ctrl-C: KeyboardInterrupt), it closes its cluster quietly and raises; the rows
    done are in ``rows.jsonl``, and the same call runs the others.
    """
    if isinstance(runs, Sized) and not len(runs):
        raise ValueError("a study needs at least one run")
    outputs = list(outputs)
    solver = dict(solver or {})
    plugins = tuple(os.path.abspath(p) for p in plugins)
    text, path = _netlist_source(netlist, file)
    # Checked here, before any cluster starts: the netlist loads and every name exists (of
    # every run for a list, which is held anyway; else of each run as the study takes it,
    # the first before the cluster starts).
    model = Library(plugins).load(text, file=path, allow_plugins=allow_plugins)
    states = frozenset(model.states)

    def check_names(values: Mapping[str, Any]) -> None:
        unknown = [n for n in values if n not in model.parameters and n not in states]
        if unknown:
            raise InputError(f"{path}: no numeric parameter or state named {', '.join(repr(n) for n in unknown)}; "
                             f"parameters: {', '.join(sorted(model.parameters))}")

    if isinstance(runs, Sequence):
        for values in runs:
            check_names(values)
    _check_outputs(model, outputs, path)
    _check_solver(model, solver, t_end, path)
    folder = Path(output_dir) if output_dir is not None else None
    if folder is not None:
        _check_output_folder(output_dir)
    with _folder_taken(folder) if folder is not None else contextlib.nullcontext():
        total = len(runs) if isinstance(runs, Sized) else None
        description = {"netlist": path, "runs": total, "outputs": [_output_name(o) for o in outputs],
                       "solver": solver, "t_end": t_end}
        digest = _study_digest(text, path, outputs, solver, t_end)
        log = _RowLog(folder, digest, description)
        taken = 0  # runs taken from `runs`

        def numbered() -> Iterator[tuple[int, dict]]:
            nonlocal taken, total
            for values in runs:
                values = dict(values)
                check_names(values)
                taken += 1
                yield taken - 1, values
            total = taken

        todo = ((index, values) for index, values in numbered() if not log.was_done(index, values))
        first = next(todo, None)
        if not taken:
            raise ValueError("a study needs at least one run")
        if first is not None:
            client, owned = _connect(scheduler, workers, quiet)
            try:
                task = functools.partial(run_batch, netlist_text=text, netlist_file=path, plugins=plugins,
                                         allow_plugins=allow_plugins, outputs=outputs,
                                         solver=solver, t_end=t_end, initial_names=states)
                cluster = getattr(client, "cluster", None) if owned else None
                with _keeping_nannies() if cluster is not None else contextlib.nullcontext():
                    _dispatch(client, task, itertools.chain([first], todo), digest, log,
                              lambda: progress(log.count, total) if progress else None, cluster=cluster)
            finally:
                if owned:
                    _close(client)
        else:
            for _ in todo:  # every run has its row: each is checked against its row all the same
                pass

        rows = log.table(taken)
        names = sorted({name for row in rows for name in row["values"]})
        si_units = {**model.variables, **{name: p.unit for name, p in model.parameters.items()}}
        frame = _frame([row["values"] for row in rows], names, rows, si_units)
        if folder is not None:
            _write_study(folder, frame, names, outputs, path)
        return frame


@contextlib.contextmanager
def _folder_taken(folder: Path):
    """Holds a study's folder while the study runs: flock on ``.jourdain.lock`` there, the
    file a run takes its own folder with (framework/src/recorder.cpp), with the same note of
    who holds it. Two studies in one folder would make every run twice and mix their rows;
    the kernel releases the lock whatever ends the study."""
    lock_file = folder / ".jourdain.lock"
    try:
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as error:
        raise InputError(f"{lock_file}: cannot create the file: {error.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 255, 0).decode(errors="replace").replace("\n", "").replace("\r", "")
            raise InputError(f"{folder}: the study's folder is in use by another study or run"
                             f"{f' ({holder})' if holder else ''}: two studies in one folder would make every run "
                             f"twice; wait for that one to end, or give this one another folder") from None
        except OSError as error:
            raise InputError(f"{lock_file}: cannot lock the study's folder: {error.strerror}") from None
        note = f"process {os.getpid()}, since {time.strftime('%Y-%m-%d %H:%M:%S')}\n"
        with contextlib.suppress(OSError):  # the lock holds without its note; a refused study then names no holder
            os.ftruncate(fd, 0)
            os.pwrite(fd, note.encode(), 0)
        yield
    finally:
        os.close(fd)


def _check_outputs(model, outputs: Sequence[str | Callable], path: str) -> None:
    """Every output a study asks for names a recorded variable and a known statistic:
    checked before any run, not found as an empty column after all of them."""
    recorded = model.record
    for spec in outputs:
        if callable(spec) or spec == "wall_time" or spec.startswith("summary:"):
            continue
        variable, _, stat = spec.rpartition(":") if ":" in spec else (spec, "", "final")
        if stat not in STATISTICS:
            raise InputError(f"output '{spec}': unknown statistic '{stat}' (one of {', '.join(STATISTICS)})")
        if variable not in recorded:
            hint = (f": it is recordable, add it to the netlist's record list" if variable in model.variables
                    else f"; recorded: {', '.join(recorded)}")
            raise InputError(f"{path}: output '{spec}': no recorded variable '{variable}'{hint}")


def _check_solver(model, solver: Mapping[str, Any], t_end: float | None, path: str) -> None:
    """The study's solver settings as the netlist's are checked (keys the methods know,
    finite numbers), before the cluster starts: a bad one would fail every run alike."""
    methods = {m["name"]: m for m in model.library.solvers()["methods"]}
    method = solver.get("method", model.solver.get("method", "dopri5"))
    if method not in methods:
        raise InputError(f"solver 'method': unknown method '{method}'; registered methods: {', '.join(sorted(methods))}")
    known = {setting["key"] for m in methods.values() for setting in m["settings"]}
    for key, value in solver.items():
        if key == "method":
            continue
        if key not in known:
            raise InputError(f"solver '{key}': no method has this setting; {method}'s: "
                             f"{', '.join(s['key'] for s in methods[method]['settings'])}")
        if isinstance(value, float) and not math.isfinite(value):
            raise InputError(f"solver '{key}': {value!r} is not a finite number")
    if t_end is not None and not (isinstance(t_end, (int, float)) and math.isfinite(t_end) and t_end > 0):
        raise InputError(f"t_end: {t_end!r} is not a positive, finite time")


def _check_output_folder(output_dir: str | os.PathLike) -> None:
    """A study's folder: named, and a folder (or one that can be made), checked before any run."""
    text = os.fspath(output_dir)
    if not text:
        raise InputError("the study's output folder is not named (an empty path)")
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{text}: is not a folder (the study writes rows.jsonl, sweep.csv and sweep.html into one)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"{text}: cannot create the study's folder: {error.strerror or error}") from None


def _frame(runs: Sequence[Mapping], names: Sequence[str], rows: Sequence[dict], si_units: Mapping[str, str]):
    """The study's table: parameters as numbers (in the unit they were given in; SI for
    bare numbers), then the outputs (SI), status, error, wall time and worker.
    ``frame.attrs["units"]`` holds the columns' units (``si_units``: of every parameter and
    recordable variable), ``attrs["parameters"]`` and ``attrs["outputs"]`` their names."""
    import pandas as pd

    table: dict[str, list] = {"run": [r["run"] for r in rows]}
    units: dict[str, str] = {}
    for name in names:
        values = [split_quantity(run.get(name, math.nan)) for run in runs]
        column_units = {u for v, u in values if not (isinstance(v, float) and math.isnan(v))}
        if len(column_units) <= 1 and all(isinstance(v, float) for v, _ in values):
            table[name] = [v for v, _ in values]
            units[name] = next(iter(column_units), "") or si_units.get(name, "")
        else:  # mixed units: the values as given
            table[name] = [run.get(name) for run in runs]
    output_columns: list[str] = []
    for row in rows:
        for key in row:
            if key not in ("run", "values", "status", "error", "wall_time_s", "worker") and key not in output_columns:
                output_columns.append(key)
    for key in output_columns:
        table[key] = [row.get(key, math.nan) for row in rows]
    for key in ("status", "error", "wall_time_s", "worker"):
        table[key] = [row.get(key, "") for row in rows]
    for key in output_columns:
        units[key] = _output_unit(key, si_units)
    frame = pd.DataFrame(table)
    frame.attrs["units"] = units
    frame.attrs["parameters"] = list(names)
    frame.attrs["outputs"] = output_columns
    return frame


def _output_unit(column: str, variables: Mapping[str, str]) -> str:
    """An output's unit: its variable's for a value of it, seconds for a time."""
    variable, _, stat = column.rpartition(":") if ":" in column else (column, "", "final")
    if column == "wall_time" or stat in ("tmin", "tmax"):
        return "s"
    return variables.get(variable, "") if stat in STATISTICS else ""


def _write_study(folder: Path, frame, names: Sequence[str], outputs: Sequence, netlist: str) -> None:
    from .sweep_page import sweep_page

    frame.to_csv(folder / "sweep.csv", index=False, float_format="%.17g")
    failed = int((frame["status"] != "finished").sum())
    notes = [f"netlist: {netlist}", f"{len(frame)} runs, {failed} not finished"]
    units = dict(frame.attrs.get("units", {}))
    numeric_outputs = [c for c in frame.attrs["outputs"] if frame[c].dtype.kind in "fi"]
    page = sweep_page(frame, [n for n in names if frame[n].dtype.kind in "fi"], numeric_outputs,
                      title=f"Parameter study of {Path(netlist).name}", units=units, notes=notes)
    (folder / "sweep.html").write_text(page, encoding="utf-8")
