"""The README's studies run as written (in their --quick size), and their results say
what the README says they show."""

import json
import subprocess
import sys

import pandas as pd

from conftest import SOURCE_DIR

EXAMPLES = SOURCE_DIR / "apps" / "python" / "examples"


def run_example(name, out):
    done = subprocess.run([sys.executable, str(EXAMPLES / name), "--quick", "-o", str(out)], cwd=SOURCE_DIR,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(out / "sweep.csv")
    assert (frame["status"] == "finished").all()
    assert (out / "sweep.html").is_file()
    return frame


def test_press_study(tmp_path):
    frame = run_example("press_study.py", tmp_path)
    assert len(frame) == 4
    small, large = frame[frame["prefill.decompression_area"] == 5.0], frame[frame["prefill.decompression_area"] == 30.0]
    # A larger decompression poppet: a shorter cycle, a steeper pressure drop.
    assert (large["cycle.entered_top:final"].to_numpy() < small["cycle.entered_top:final"].to_numpy()).all()
    assert (large["cap_pressure.max_rate:final"].to_numpy() > small["cap_pressure.max_rate:final"].to_numpy()).all()


def test_servo_gain_study(tmp_path):
    frame = run_example("servo_gain_study.py", tmp_path)
    assert len(frame) == 4 and {"overshoot", "settling_time"} <= set(frame.columns)
    # Every sampled gain pair settles within the 3 s run, and stiffer gains settle sooner.
    assert (frame["settling_time"] < 3.0).all()
    by_kp = frame.sort_values("pi.kp")
    assert by_kp["settling_time"].iloc[0] > by_kp["settling_time"].iloc[-1]


def test_servo_fit(tmp_path):
    done = subprocess.run([sys.executable, str(EXAMPLES / "servo_fit.py"), "-o", str(tmp_path)], cwd=SOURCE_DIR,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    # The synthetic measurement's truth (netlists/reference/README.md), found within 1 %.
    truth = {"valve.max_opening": 0.012, "cylinder.viscous_friction": 2500.0}
    for name, value in truth.items():
        assert abs(summary["fit"]["estimates"][name] / value - 1) < 0.01
    assert (tmp_path / "study.html").is_file()
