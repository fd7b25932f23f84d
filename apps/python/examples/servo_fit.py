"""Servo estimation: which valve gain and cylinder friction reproduce a measured position
(netlists/position_servo.json, against netlists/reference/position_servo_measured.csv).

    /usr/bin/python3 apps/python/examples/servo_fit.py [-o results/servo_fit]

The measurement is synthetic, so that the answer is known: the servo run with a valve
whose full opening is 12 mm (the netlist says 10) and a cylinder friction of 2500 N*s/m
(the netlist says 2000), its load's position taken every 2 ms over the 3 s run, plus
Gaussian noise of 0.5 mm (seed 7). ``--write-measurement FILE`` makes it again.
"""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

import jourdain

ROOT = Path(__file__).resolve().parents[3]
SERVO = ROOT / "netlists" / "position_servo.json"
MEASURED = ROOT / "netlists" / "reference" / "position_servo_measured.csv"
TRUTH = {"valve.max_opening": 0.012, "cylinder.viscous_friction": 2500.0}
NOISE = 0.5e-3  # m
SEED = 7


def synthetic_measurement() -> pd.DataFrame:
    """The servo's load.x with TRUTH, every 2 ms, plus the noise."""
    result = jourdain.load(SERVO).run(TRUTH, report=False)
    t = np.round(np.arange(0.0, 3.0 + 1e-9, 0.002), 12)
    after_events = np.append(np.diff(result.time) > 0, True)  # an event's row repeats its time
    x = np.interp(t, result.time[after_events], result["load.x"][after_events])
    x += np.random.default_rng(SEED).normal(0.0, NOISE, len(t))
    return pd.DataFrame({"time [s]": t, "load.x [m]": x})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output-dir", default="results/servo_fit")
    parser.add_argument("--write-measurement", metavar="FILE", help="write the synthetic measurement and stop")
    args = parser.parse_args()
    if args.write_measurement:
        synthetic_measurement().to_csv(args.write_measurement, index=False, float_format="%.17g")
        return
    found = jourdain.fit(SERVO, MEASURED, ["valve.max_opening=5e-3:20e-3", "cylinder.viscous_friction=500:5000"],
                         output_dir=args.output_dir)
    for name, value in found.estimates.items():
        low, high = found.intervals[name]
        print(f"{name}: {value:.5g} (truth {TRUTH[name]:.5g}; 95 % interval {low:.5g} .. {high:.5g})")
    print(f"{args.output_dir}/study.html")


if __name__ == "__main__":
    main()
