"""What the planar mechanisms' default formulation costs: each example netlist run with the
former default (the KKT system; projection only where the netlist asks for it, Euclidean
metric) and with the current one (the augmented Lagrangian, with its mass-orthogonal
projections where the netlist leaves them out), side by side.

    python3 tests/bench/bench_formulations.py [--jourdain build/apps/cli/jourdain] [--repeats 3]

Run on purpose (not by ctest). In each round the two variants of a netlist run one after
the other, in turns (`jourdain run -q --no-report`, the run's own wall time from summary.json, so
loading and writing files are left out), so that they share the machine's state; every
figure is the median over --repeats rounds. It prints, per netlist, both times, their
ratio (new / old), the steps each took, and the largest difference of the recorded
variables between the two (relative to the column's scale, 1 for small values).
"""

import argparse
import csv
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The examples with planar mechanisms. The excavator and the slider-crank are kinematic
# (the KKT system whatever the formulation, and no projection): they measure the
# monitoring and the initial checks only.
NETLISTS = ["pendulum", "four_bar", "slider_crank", "andrews_squeezer", "excavator", "wheel_loader",
            "excavator_hydraulic", "flexible_spinup", "cantilever", "n_four_bar"]


def old_default(constraints):
    """The former defaults, where the netlist leaves them out: KKT, no projection, Euclidean."""
    c = dict(constraints)
    c.setdefault("formulation", "kkt")
    c.setdefault("projection", False)
    c.setdefault("projection_metric", "euclidean")
    return c


def run(jourdain, doc, folder):
    folder.mkdir(parents=True, exist_ok=True)
    netlist = folder / "net.json"
    netlist.write_text(json.dumps(doc))
    out = folder / "out"
    done = subprocess.run([jourdain, "run", "-q", "--no-report", str(netlist), "-o", str(out)],
                          capture_output=True, text=True)
    summary = json.loads((out / "summary.json").read_text())
    with open(out / "results.csv", newline="") as f:
        rows = [[float(v) for v in row] for row in list(csv.reader(f))[1:]]
    return done.returncode, summary, rows


def largest_difference(a, b):
    if len(a) != len(b) or not a:
        return float("nan")
    worst = 0.0
    for c in range(1, len(a[0])):
        scale = max(1.0, max(abs(r[c]) for r in a))
        worst = max(worst, max(abs(x[c] - y[c]) for x, y in zip(a, b)) / scale)
    return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jourdain", default=str(ROOT / "build" / "apps" / "cli" / "jourdain"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("netlists", nargs="*", default=NETLISTS)
    args = parser.parse_args()
    print(f"{'netlist':20} {'old [s]':>9} {'new [s]':>9} {'new/old':>8} {'steps old':>10} {'steps new':>10} "
          f"{'max rel diff':>13}  status")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.netlists:
            doc = json.loads((ROOT / "netlists" / f"{name}.json").read_text())
            world = doc.setdefault("world", {})
            constraints = world.get("constraints", {})
            old_doc = json.loads(json.dumps(doc))
            old_doc["world"]["constraints"] = old_default(constraints)
            times = {"old": [], "new": []}
            results = {}
            for k in range(args.repeats):
                # Which runs first alternates between rounds (a first run may pay for a cold cache).
                order = (("old", old_doc), ("new", doc))
                for variant, d in (order if k % 2 == 0 else order[::-1]):
                    code, summary, rows = run(args.jourdain, d, Path(tmp) / name / variant / str(k))
                    times[variant].append(summary["wall_time_s"])
                    results[variant] = (code, summary, rows)
            old_t, new_t = statistics.median(times["old"]), statistics.median(times["new"])
            (oc, os_, orows), (nc, ns, nrows) = results["old"], results["new"]
            status = f"{os_['status']}/{ns['status']}"
            if ns.get("accuracy_warnings"):
                status += f" ({len(ns['accuracy_warnings'])} accuracy warning(s) with the new default)"
            if os_.get("accuracy_warnings"):
                status += f" ({len(os_['accuracy_warnings'])} with the old)"
            print(f"{name:20} {old_t:9.3f} {new_t:9.3f} {new_t / old_t:8.2f} {os_['statistics']['steps']:10d} "
                  f"{ns['statistics']['steps']:10d} {largest_difference(orows, nrows):13.2e}  {status}")


if __name__ == "__main__":
    main()
