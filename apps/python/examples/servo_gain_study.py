"""Servo gain study: the position servo's PI gains against its settling and overshoot
(netlists/position_servo.json), as a Latin-hypercube sample of the gain plane.

    /usr/bin/python3 apps/python/examples/servo_gain_study.py [-o results/servo_study] [--quick]

An output can be any function of a run: here the 2 % settling time of the load's position
after the set-point step, and its overshoot.
"""

import argparse

import numpy as np

import jourdain


def step_response(result):
    """Overshoot (m) and 2 % settling time (s) of load.x towards its final value."""
    t, x = result.time, result["load.x"]
    start, final = x[0], x[-1]
    band = 0.02 * abs(final - start)
    outside = np.nonzero(np.abs(x - final) > band)[0]
    settling = float(t[outside[-1] + 1]) if len(outside) and outside[-1] + 1 < len(t) else float(t[0])
    overshoot = float(max(0.0, np.max((x - final) * np.sign(final - start))))
    return {"overshoot": overshoot, "settling_time": settling}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output-dir", default="results/servo_study")
    parser.add_argument("--quick", action="store_true", help="4 runs (the test suite's)")
    parser.add_argument("--scheduler", help="a dask scheduler's address; default: a local cluster")
    args = parser.parse_args()

    runs = jourdain.latin_hypercube({"pi.kp": jourdain.Uniform(0.01, 0.05), "pi.ki": jourdain.Uniform(0.0, 0.002)},
                                    4 if args.quick else 32, seed=1)
    frame = jourdain.sweep("netlists/position_servo.json", runs, [step_response, "load.x:max", "wall_time"],
                           output_dir=args.output_dir, scheduler=args.scheduler)
    print(frame[["pi.kp", "pi.ki", "overshoot", "settling_time", "status"]].to_string(index=False))
    print(f"{args.output_dir}/sweep.html")


# A local cluster starts worker processes that import this file again: the study must
# only run when the file is the program, not when it is imported.
if __name__ == "__main__":
    main()
