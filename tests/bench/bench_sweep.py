"""Parameter studies: a sweep on two local dask workers against the same runs one after
another, and the Python path's cost per run against the command line's.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/bench_sweep.py [--repeats 5]

Run on purpose (not by ctest). Every figure is a median over --repeats rounds, and the
variants of a round run one after another, so that they share the machine's state. It
prints the ratios; README.md here says what they were when last measured.

1. 64 runs of netlists/position_servo.json (the controller's kp over a Latin hypercube),
   each variant in the same round:
   - serial: the 64 runs in a loop in this process (Model.run, the fastest serial path);
   - sweep: jourdain.sweep on a local cluster of 2 workers started beforehand (the
     cluster's start-up, about a second, is reported apart), and the same with 1 worker;
     the clusters one after the other, each round the serial loop then the sweep;
   the same with every run 10× longer (t_end 30 s, rtol 1e-9), where dask's own cost per
   task weighs less.
   Beside each figure: how much longer the slower worker's runs took than the other's,
   and the CPU time the machine spent outside the study's processes during a sweep (from
   /proc/stat), which tells a study slowed by something else on the machine.
2. Per run, 32 runs: `jourdain run -q --no-report` (a process, loading the netlist,
   writing results.csv and summary.json) against jourdain.load(...).run() and against
   Model.run() on a model loaded once.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jourdain

ROOT = Path(__file__).resolve().parents[2]
SERVO = ROOT / "netlists" / "position_servo.json"
JOURDAIN = os.environ.get("JOURDAIN_EXE", str(ROOT / "build" / "apps" / "cli" / "jourdain"))


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (Linux /proc/stat: user, nice, system,
    irq, softirq), to tell a slow study from a machine that something else slowed."""
    fields = open("/proc/stat").readline().split()[1:]
    return sum(int(fields[k]) for k in (0, 1, 2, 5, 6)) / os.sysconf("SC_CLK_TCK")


def process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def sweep_round(name, client, runs, solver) -> dict:
    model = jourdain.load(SERVO)
    out = {"serial": timed(lambda: [model.run(r, solver=solver, report=False) for r in runs])}
    frame = None

    def study():
        nonlocal frame
        frame = jourdain.sweep(SERVO, runs, ["load.x:max"], scheduler=client, solver=solver)

    busy, own, workers = machine_busy(), process_cpu(), sum(client.run(process_cpu).values())
    out[name] = timed(study)
    # CPU the study's processes did not spend (other processes, the kernel for them).
    out["other_cpu"] = (machine_busy() - busy) - (process_cpu() - own) - (sum(client.run(process_cpu).values()) - workers)
    # The study's rows per worker: the slowest worker's runs against the fastest's.
    per_worker = frame.groupby("worker")["wall_time_s"].sum()
    out["worker_spread"] = per_worker.max() / per_worker.min()
    assert (frame["status"] == "finished").all()
    return out


def per_run_round(count: int, folder: Path) -> dict:
    def cli():
        for i in range(count):
            subprocess.run([JOURDAIN, "run", "-q", "--no-report", str(SERVO), "-o", str(folder / f"r{i}")], check=True)

    model = jourdain.load(SERVO)
    return {
        "cli": timed(cli) / count,
        "load_and_run": timed(lambda: [jourdain.load(SERVO).run(report=False) for _ in range(count)]) / count,
        "run": timed(lambda: [model.run(report=False) for _ in range(count)]) / count,
    }


def medians(rounds: list[dict]) -> dict:
    return {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    import dask
    from dask.distributed import Client, LocalCluster

    # The clusters jourdain.sweep starts itself (study.py, _connect), with its settings, one
    # at a time: with two local clusters in one process, the first one created stalled
    # now and then for 0.1-0.3 s (tasks sent to a busy worker), whichever its size.
    from jourdain.study import LOCAL_CLUSTER_CONFIG
    runs = jourdain.latin_hypercube({"pi.kp": jourdain.Uniform(0.01, 0.05)}, 64, seed=1)
    variants = (("as is (t_end 3 s)", {}), ("10x longer (t_end 30 s, rtol 1e-9)", {"t_end": 30, "rtol": 1e-9}))
    figures = {}
    for n in (1, 2):
        started = time.perf_counter()
        with dask.config.set(LOCAL_CLUSTER_CONFIG):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        start_up = time.perf_counter() - started
        jourdain.sweep(SERVO, runs[:4], ["load.x:max"], scheduler=client)  # each worker loads the model once
        for label, solver in variants:
            figures[(n, label)] = medians([sweep_round("sweep", client, runs, solver) for _ in range(args.repeats)])
        client.close()
        cluster.close()
        print(f"local cluster of {n} worker(s): start-up {start_up:.2f} s (not in the figures below)")

    print(f"machine: {os.cpu_count()} cores; each figure a median of {args.repeats} rounds, each round the serial loop "
          f"then the sweep, one cluster at a time")
    for label, _ in variants:
        one, two = figures[(1, label)], figures[(2, label)]
        print(f"64 runs of position_servo.json, {label}: serial {two['serial']:.3f} s "
              f"({1000 * two['serial'] / 64:.1f} ms/run), sweep on 2 workers {two['sweep']:.3f} s; "
              f"with the 1-worker cluster: serial {one['serial']:.3f} s, sweep {one['sweep']:.3f} s")
        print(f"  speed-up of 2 workers: {two['serial'] / two['sweep']:.2f} against the serial loop; "
              f"1 worker: {one['serial'] / one['sweep']:.2f}; 2 workers against 1 worker, each against its own "
              f"serial loop: {(one['sweep'] / one['serial']) / (two['sweep'] / two['serial']):.2f}")
        print(f"  2 workers: the slower worker's runs took {two['worker_spread']:.2f}x the faster one's; CPU spent "
              f"outside the study's processes during a sweep: {two['other_cpu']:.3f} s (a larger figure: something "
              f"else ran)")

    with tempfile.TemporaryDirectory() as tmp:
        m = medians([per_run_round(32, Path(tmp) / str(k)) for k in range(args.repeats)])
    print(f"per run: command line {1000 * m['cli']:.1f} ms, jourdain.load().run() {1000 * m['load_and_run']:.1f} ms, "
          f"Model.run() {1000 * m['run']:.1f} ms: the command line costs {m['cli'] / m['run']:.2f}x a run of a loaded "
          f"model and {m['cli'] / m['load_and_run']:.2f}x a load and run from Python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
