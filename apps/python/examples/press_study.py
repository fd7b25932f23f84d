"""Press study: how the relief setting and the prefill valve's decompression poppet shape the
3150 kN press's cycle (netlists/press_3150kN_fixed.json, the cycle that decompresses the
cap through the prefill valve's small poppet before the main valve reverses).

A larger poppet bleeds the compressed cap oil faster: a shorter cycle (the sequencer's
entered_top: when the slide is back at the top), at the price of a steeper pressure drop
(the cap pressure sensor's max_rate, the peak |dp/dt| of the cycle). The relief setting
caps the pressing pressure. Run from the project's root:

    /usr/bin/python3 apps/python/examples/press_study.py [-o results/press_study] [--quick]

It writes sweep.csv and sweep.html (each output against each parameter) in the folder.
"""

import argparse

import jourdain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output-dir", default="results/press_study")
    parser.add_argument("--quick", action="store_true", help="a 2 × 2 study (the test suite's)")
    parser.add_argument("--scheduler", help="a dask scheduler's address; default: a local cluster")
    args = parser.parse_args()

    count = 2 if args.quick else 4
    runs = jourdain.grid({
        "relief.cracking_pressure": jourdain.linspace(25, 28, count, "MPa"),
        "prefill.decompression_area": jourdain.linspace(5, 30, count, "mm^2"),
    })
    frame = jourdain.sweep("netlists/press_3150kN_fixed.json", runs,
                           ["cap_pressure.max_rate:final", "cap_pressure.max:final", "cycle.entered_top:final", "wall_time"],
                           output_dir=args.output_dir, scheduler=args.scheduler)
    print(frame[["relief.cracking_pressure", "prefill.decompression_area", "cap_pressure.max_rate:final",
                 "cycle.entered_top:final", "status"]].to_string(index=False))
    print(f"{args.output_dir}/sweep.html")


# A local cluster starts worker processes that import this file again: the study must
# only run when the file is the program, not when it is imported.
if __name__ == "__main__":
    main()
