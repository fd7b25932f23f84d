"""Parameter studies: a sweep on two local dask workers against the same runs one after
another, and the Python path's cost per run against the command line's.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/bench_sweep.py [--repeats 3]

Run on purpose (not by ctest). Every figure is a median over --repeats rounds, and the
variants of a round run one after another, so that they share the machine's state. It
prints the ratios; README.md here says what they were when last measured.

1. 64 runs of netlists/position_servo.json (the controller's kp over a Latin hypercube),
   each variant in the same round:
   - serial: the 64 runs in a loop in this process (Model.run, the fastest serial path);
   - sweep on 1 worker and on 2 workers: jourdain.sweep on a local cluster started
     beforehand (the cluster's start-up, about a second, is reported apart);
   the same with every run 10× longer (t_end 30 s, rtol 1e-9), where dask's own cost per
   task weighs less.
2. Per run, 32 runs: `jourdain run -q --no-report` (a process, loading the netlist,
   writing results.csv and summary.json) against jourdain.load(...).run() and against
   Model.run() on a model loaded once.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jourdain

ROOT = Path(__file__).resolve().parents[2]
SERVO = ROOT / "netlists" / "position_servo.json"
JOURDAIN = os.environ.get("JOURDAIN_EXE", str(ROOT / "build" / "framework" / "cli" / "jourdain"))


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def sweep_round(clients, runs, solver) -> dict:
    model = jourdain.load(SERVO)
    out = {"serial": timed(lambda: [model.run(r, solver=solver, report=False) for r in runs])}
    for name, client in clients.items():
        frame = None

        def study():
            nonlocal frame
            frame = jourdain.sweep(SERVO, runs, ["load.x:max"], scheduler=client, solver=solver)

        out[name] = timed(study)
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
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    import dask
    from dask.distributed import Client, LocalCluster

    # The clusters jourdain.sweep starts itself (study.py, _connect), with its settings.
    from jourdain.study import LOCAL_CLUSTER_CONFIG
    started = time.perf_counter()
    with dask.config.set(LOCAL_CLUSTER_CONFIG):
        clusters = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
                    for n in (1, 2)}
    start_up = (time.perf_counter() - started) / 2
    clients = {f"sweep_{n}_workers": Client(c) for n, c in clusters.items()}
    runs = jourdain.latin_hypercube({"pi.kp": jourdain.Uniform(0.01, 0.05)}, 64, seed=1)
    for client in clients.values():  # each worker loads the model once, as in any study
        jourdain.sweep(SERVO, runs[:4], ["load.x:max"], scheduler=client)

    print(f"machine: {os.cpu_count()} cores; local cluster start-up {start_up:.2f} s (not in the figures below)")
    for label, solver in (("as is (t_end 3 s)", {}), ("10x longer (t_end 30 s, rtol 1e-9)", {"t_end": 30, "rtol": 1e-9})):
        m = medians([sweep_round(clients, runs, solver) for _ in range(args.repeats)])
        print(f"64 runs of position_servo.json, {label}: serial {m['serial']:.3f} s "
              f"({1000 * m['serial'] / 64:.1f} ms/run), sweep on 1 worker {m['sweep_1_workers']:.3f} s, "
              f"on 2 workers {m['sweep_2_workers']:.3f} s")
        print(f"  speed-up of 2 workers: {m['serial'] / m['sweep_2_workers']:.2f} against the serial loop, "
              f"{m['sweep_1_workers'] / m['sweep_2_workers']:.2f} against the sweep on 1 worker")
    for client in clients.values():
        client.close()
    for cluster in clusters.values():
        cluster.close()

    with tempfile.TemporaryDirectory() as tmp:
        m = medians([per_run_round(32, Path(tmp) / str(k)) for k in range(args.repeats)])
    print(f"per run: command line {1000 * m['cli']:.1f} ms, jourdain.load().run() {1000 * m['load_and_run']:.1f} ms, "
          f"Model.run() {1000 * m['run']:.1f} ms: the command line costs {m['cli'] / m['run']:.2f}x a run of a loaded "
          f"model and {m['cli'] / m['load_and_run']:.2f}x a load and run from Python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
