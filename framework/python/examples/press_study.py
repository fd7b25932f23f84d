"""Press study: how the relief setting and the prefill valve's decompression area shape the
3150 kN press's cycle (netlists/press_3150kN.json).

The naive cycle reverses the main valve straight after the hold, and the compressed cap
oil decompresses in a pressure shock: its peak |dp/dt| (the cap pressure sensor's
max_rate) is what a designer trades against the cycle time (when the slide is back at the
top, the sequencer's entered_top). Run from the project's root:

    /usr/bin/python3 framework/python/examples/press_study.py [-o results/press_study] [--quick]

It writes sweep.csv and sweep.html (each output against each parameter) in the folder.
"""

import argparse

import jourdain

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("-o", "--output-dir", default="results/press_study")
parser.add_argument("--quick", action="store_true", help="a 2 × 2 study (the test suite's)")
parser.add_argument("--scheduler", help="a dask scheduler's address; default: a local cluster")
args = parser.parse_args()

count = 2 if args.quick else 4
runs = jourdain.grid({
    "relief.cracking_pressure": jourdain.linspace(25, 28, count, "MPa"),
    "prefill.decompression_area": jourdain.linspace(0.5, 3.0, count, "mm^2"),
})
frame = jourdain.sweep("netlists/press_3150kN.json", runs,
                       ["cap_pressure.max_rate:final", "cap_pressure.max:final", "cycle.entered_top:final", "wall_time"],
                       output_dir=args.output_dir, scheduler=args.scheduler)
print(frame[["relief.cracking_pressure", "prefill.decompression_area", "cap_pressure.max_rate:final",
             "cycle.entered_top:final", "status"]].to_string(index=False))
print(f"{args.output_dir}/sweep.html")
