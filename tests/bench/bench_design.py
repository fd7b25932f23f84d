"""Design studies: the generations of a differential evolution on two local dask workers
against sweeps of the same points on the same workers, and against those runs one after
another in this process.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/bench_design.py [--repeats 5]
        [--populations 8,32] [--generations 4] [--cases equal,unequal]

Run on purpose (not by ctest). Every figure is a median over --repeats rounds; the
variants of a round run one after another on one cluster, so that they share the
machine's state. It prints the figures; README.md here says what they were when last
measured.

The model: netlists/mass_spring_damper.json, the objective the ISE of the mass's
position (``mass.x:integral_square``), two cases:

- equal: over ``damper.damping`` in 1..40 N*s/m (least at a damping ratio of 0.5,
  10 N*s/m), every run t_end 50 s with max_step 1 ms: 50 000 steps whatever the damping,
  about 25-47 ms a run (the machine's speed drifts), all of one length;
- unequal: over ``spring.stiffness`` in 100..10000 N/m, t_end 50 s with adaptive steps
  (rtol 1e-10, atol 1e-16: the decayed oscillation keeps them small): 5 000 to 59 000
  steps, as the square root of the stiffness, 6 to 55 ms a run, so that a batch waits
  for its longest runs.

Runs of tens of milliseconds are long beside dask's few milliseconds per task and short
enough that what a generation costs beyond its runs shows; test_cluster.py's SLOW
settings (1 s a run) would hide it, and a round would take minutes.

In each round, for a population of P points and G generations (scipy evaluates its
initial population too: G + 1 batches, the same points in every round since the seed is
fixed; a point the optimiser asks for again is not run again, so a batch may hold fewer
than P runs):

- serial: the runs of the study one after another in this process, on a model loaded
  once (as each worker keeps it loaded; jourdain.load(...).run(...)), before the
  parallel variants and again after them (the mean of the two);
- sweep: each batch's points in a jourdain.sweep of their own on the cluster;
- optimize: jourdain.optimize(..., method="differential-evolution") on the same cluster
  (the same dask Client passed as ``scheduler``, as to the sweeps: no cluster start-up
  in any figure);
- sweep of all: every point of the study in one jourdain.sweep (what the workers do
  without a pause between generations).

Both the sweep and the optimiser send their batches through study._dispatch; the script
wraps it (in this process, while it runs) to time each batch and count its dask tasks:
the optimiser's own time is what lies between its batches (scipy's step and design.py's
handling of the rows), and before the first and after the last. (The ``progress``
callback tells when rows come in, not when a batch starts.)

The parallel efficiency of a variant is serial time / (2 x its time), for the same runs.
"""

import argparse
import hashlib
import os
import resource
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import jourdain
from bench_sweep import machine_busy  # (beside this script: its folder is on sys.path)
from jourdain import study

ROOT = Path(__file__).resolve().parents[2]
NETLIST = ROOT / "netlists" / "mass_spring_damper.json"
OBJECTIVE = "mass.x:integral_square"
WORKERS = 2


@dataclass(frozen=True)
class Case:
    parameter: str
    low: float   # SI: the points are plain numbers
    high: float
    unit: str
    solver: dict

    @property
    def bounds(self) -> str:
        return f"{self.parameter}={self.low}:{self.high}"


CASES = {
    "equal": Case("damper.damping", 1, 40, "N*s/m", {"t_end": 50, "max_step": 1e-3, "output_interval": 0.1}),
    "unequal": Case("spring.stiffness", 100, 10000, "N/m",
                    {"t_end": 50, "rtol": 1e-10, "atol": 1e-16, "output_interval": 0.1}),
}


def process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Batches:
    """While installed, times every call of study._dispatch (a batch of runs on the
    cluster): its start and end (time.perf_counter), the points it ran, the dask tasks it
    sent them in, and their rows' wall times (each run as timed on its worker)."""

    def __init__(self):
        self.spans: list[tuple[float, float]] = []
        self.points: list[list[dict]] = []
        self.tasks: list[int] = []
        self.run_times: list[list[float]] = []
        self._dispatch, self._submit = study._dispatch, study._submit

    def __enter__(self):
        submitted = [0]

        def submit(*args, **kwargs):
            submitted[0] += 1
            return self._submit(*args, **kwargs)

        def dispatch(client, task, points, digest, log, *args, **kwargs):
            points = list(points)  # a batch of a design study, or a short sweep: held anyway
            submitted[0] = 0
            start = time.perf_counter()
            try:
                return self._dispatch(client, task, iter(points), digest, log, *args, **kwargs)
            finally:
                self.spans.append((start, time.perf_counter()))
                self.points.append([values for _, values in points])
                self.tasks.append(submitted[0])
                indices = {index for index, _ in points}
                rows = [log.kept[i] for i in indices if i in log.kept] if hasattr(log, "kept") else \
                    [row for row in log.rows if row["run"] in indices]
                self.run_times.append([row["wall_time_s"] for row in rows])

        study._dispatch, study._submit = dispatch, submit
        return self

    def __exit__(self, *exc):
        study._dispatch, study._submit = self._dispatch, self._submit

    def seconds(self, k: int) -> float:
        return self.spans[k][1] - self.spans[k][0]

    def busy(self) -> float:
        return sum(sum(times) for times in self.run_times)


def optimize(case: Case, client, population: int, generations: int):
    return jourdain.optimize(NETLIST, [case.bounds], OBJECTIVE, method="differential-evolution", population=population,
                             generations=generations, seed=1, solver=case.solver, scheduler=client)


def other_cpu(client, before: tuple[float, float, float] | None = None):
    """CPU seconds the machine spent outside this process and the cluster's workers since
    ``before`` (what this returns without it)."""
    now = (machine_busy(), process_cpu(), sum(client.run(process_cpu).values()))
    return now if before is None else (now[0] - before[0]) - (now[1] - before[1]) - (now[2] - before[2])


def design_round(case: Case, client, model, batches: list[list[dict]], population: int, generations: int,
                 reverse: bool) -> dict:
    """One round: the serial loop, a sweep per batch, the optimiser, one sweep of all
    (in the reverse order when ``reverse``), the serial loop again; every figure per
    batch (a mean over the study's batches). The machine's speed drifts (a virtual
    machine: one run took 25 ms and 47 ms within a minute, nothing else running): the
    serial time is the mean of the two loops, which surround the parallel variants, and
    the rounds alternate their order."""
    count = len(batches)
    flat = [values for batch in batches for values in batch]
    out: dict[str, float] = {}
    round_start = other_cpu(client)

    def serial() -> float:
        start = time.perf_counter()
        for values in flat:
            model.run(values, solver=case.solver, report=False)
        return (time.perf_counter() - start) / count

    def sweeps() -> None:
        """A sweep of each batch's points."""
        with Batches() as spans:
            start = time.perf_counter()
            for batch in batches:
                frame = jourdain.sweep(NETLIST, batch, [OBJECTIVE], scheduler=client, solver=case.solver)
                assert (frame["status"] == "finished").all(), frame[["status", "error"]]
            out["sweep"] = (time.perf_counter() - start) / count
        out["sweep_batch"] = sum(spans.seconds(k) for k in range(count)) / count
        out["sweep_runs"] = spans.busy() / count
        out["sweep_tasks"] = sum(spans.tasks) / count

    def optimizer() -> None:
        """The optimiser, each of its batches timed."""
        before = other_cpu(client)
        with Batches() as spans:
            start = time.perf_counter()
            result = optimize(case, client, population, generations)
            end = time.perf_counter()
        out["other_cpu"] = other_cpu(client, before)
        assert spans.points == batches, "the optimiser took another path"
        assert all(rec["status"] == "finished" for rec in result.evaluations)
        s = spans.spans
        out["optimize"] = (end - start) / count
        out["optimize_batch"] = sum(spans.seconds(k) for k in range(count)) / count
        out["optimize_runs"] = spans.busy() / count
        out["optimize_tasks"] = sum(spans.tasks) / count
        # A batch's longest run against its mean (what the tail of a batch waits for).
        out["longest"] = statistics.median(max(t) / statistics.mean(t) for t in spans.run_times)
        # Between two batches: scipy's step (mutation, crossover, selection, its
        # convergence test) and design.py's (points in, rows copied, figures out).
        out["between"] = statistics.median(s[k + 1][0] - s[k][1] for k in range(count - 1))
        out["before"] = s[0][0] - start   # set-up: the netlist loaded and checked, scipy's start
        out["after"] = end - s[-1][1]     # the result's records and summary

    def sweep_all() -> None:
        """Every point of the study in one sweep."""
        with Batches() as spans:
            start = time.perf_counter()
            frame = jourdain.sweep(NETLIST, flat, [OBJECTIVE], scheduler=client, solver=case.solver)
            out["sweep_all"] = (time.perf_counter() - start) / count
        assert (frame["status"] == "finished").all()
        out["sweep_all_batch"] = spans.seconds(0) / count
        out["sweep_all_runs"] = spans.busy() / count
        out["sweep_all_tasks"] = spans.tasks[0] / count
        # The slower worker's runs against the other's.
        per_worker = frame.groupby("worker")["wall_time_s"].sum()
        out["worker_spread"] = per_worker.max() / per_worker.min() if len(per_worker) > 1 else float("inf")

    first = serial()
    for variant in (sweep_all, optimizer, sweeps) if reverse else (sweeps, optimizer, sweep_all):
        variant()
    last = serial()
    out["serial"] = (first + last) / 2
    out["serial_drift"] = abs(last - first) / out["serial"]
    out["serial_run"] = out["serial"] * count / len(flat)
    out["round_other_cpu"] = other_cpu(client, round_start)
    return out


def medians(rounds: list[dict]) -> dict:
    return {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}


def load_average() -> str:
    return " ".join(open("/proc/loadavg").read().split()[:3])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--populations", default="8,32", help="comma-separated population sizes")
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--cases", default="equal,unequal", help=f"comma-separated, of {', '.join(CASES)}")
    args = parser.parse_args()
    import dask
    from dask.distributed import Client, LocalCluster

    code = hashlib.sha256(Path(jourdain.design.__file__).read_bytes()).hexdigest()[:12]
    print(f"{jourdain.design.__file__} (sha256 {code}); load average before: {load_average()}")
    # The settings jourdain.sweep gives the clusters it starts itself (study.py, _connect).
    started = time.perf_counter()
    with dask.config.set(study.LOCAL_CLUSTER_CONFIG):
        cluster = LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    print(f"local cluster of {WORKERS} workers: start-up {time.perf_counter() - started:.2f} s (in no figure)")
    try:
        model = jourdain.load(NETLIST)
        jourdain.sweep(NETLIST, [{}] * 4, [OBJECTIVE], scheduler=client)  # each worker loads the model
        for name in args.cases.split(","):
            case = CASES[name]
            for population in (int(p) for p in args.populations.split(",")):
                # The points the optimiser runs (the same in every round: a fixed seed), in
                # the batches it sends them in.
                with Batches() as first:
                    best = optimize(case, client, population, args.generations).best["values"][case.parameter]
                batches = first.points
                rounds = [design_round(case, client, model, batches, population, args.generations, reverse=k % 2 == 1)
                          for k in range(args.repeats)]
                report(name, case, population, batches, best, medians(rounds), rounds)
    finally:
        client.close()
        cluster.close()
    print(f"load average after: {load_average()}")
    return 0


def report(name: str, case: Case, population: int, batches: list[list[dict]], best: float, m: dict,
           rounds: list[dict]) -> None:
    count = len(batches)

    def eff(r: dict, key: str) -> float:
        return r["serial"] / (WORKERS * r[key])

    def spread(values) -> str:
        values = sorted(values)
        return f"{statistics.median(values):.2f} ({values[0]:.2f}-{values[-1]:.2f})"

    print(f"\n{name} runs ({case.parameter} in {case.low}..{case.high} {case.unit}), population {population}: "
          f"{count} batches (the initial population and {count - 1} generations) of "
          f"{', '.join(str(len(b)) for b in batches)} runs, {1000 * m['serial_run']:.1f} ms a run in the serial loop, "
          f"a batch's longest run {m['longest']:.2f}x its mean; best {best:.6g} {case.unit}. Per batch, medians of "
          f"{len(rounds)} rounds; efficiency = serial / (2 x time), median (min-max) of the rounds:")
    print(f"  {'':<48} {'time':>10}  {'efficiency':<18} {'tasks':>5} {'workers idle':>12}")
    print(f"  {'serial loop (one run after another, here)':<48} {1000 * m['serial']:7.1f} ms")
    for label, key in (("sweep of the batch's points (whole call)", "sweep"), ("  its dispatch", "sweep_batch"),
                       ("optimize (whole call / batches)", "optimize"), ("  its batches' dispatch", "optimize_batch"),
                       ("sweep of all the points (whole call / batches)", "sweep_all"),
                       ("  its dispatch", "sweep_all_batch")):
        tasks = idle = ""
        if key.endswith("_batch"):
            base = key[:-len("_batch")]
            tasks = f"{m[base + '_tasks']:.1f}"
            # The two workers' time in the dispatch less their runs' own wall times.
            idle = f"{1 - m[base + '_runs'] / (WORKERS * m[key]):.0%}"
        print(f"  {label:<48} {1000 * m[key]:7.1f} ms  {spread(eff(r, key) for r in rounds):<18} {tasks:>5} {idle:>12}")
    print(f"  optimize's efficiency over the sweep's of one batch: "
          f"{spread(eff(r, 'optimize') / eff(r, 'sweep') for r in rounds)} whole calls, "
          f"{spread(eff(r, 'optimize_batch') / eff(r, 'sweep_batch') for r in rounds)} dispatch against dispatch; "
          f"over the sweep of all the points at once: {spread(eff(r, 'optimize') / eff(r, 'sweep_all') for r in rounds)}")
    print(f"  the workers' runs (their rows' wall times) per batch: {1000 * m['sweep_runs']:.0f} ms in the sweeps, "
          f"{1000 * m['optimize_runs']:.0f} ms in optimize, {1000 * m['sweep_all_runs']:.0f} ms in the sweep of all, "
          f"against {1000 * m['serial']:.0f} ms in the serial loop")
    print(f"  the optimiser's own time: {1000 * m['between']:.2f} ms between two batches, {1000 * m['before']:.1f} ms "
          f"before the first, {1000 * m['after']:.1f} ms after the last")
    others = ", ".join(f"{r['round_other_cpu']:.2f}" for r in rounds)
    drifts = ", ".join(f"{r['serial_drift']:.0%}" for r in rounds)
    print(f"  sweep of all: the slower worker's runs took {m['worker_spread']:.2f}x the other's. CPU spent outside "
          f"the bench's processes (a larger figure: something else ran): {m['other_cpu']:.3f} s during optimize, "
          f"in each round {others} s; the two serial loops of each round differed by {drifts}")


if __name__ == "__main__":
    sys.exit(main())
