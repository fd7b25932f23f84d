"""Design studies (jourdain/design.py): estimation recovers known parameters from a
synthetic measurement, optimisation finds a closed-form optimum, a Pareto front holds
what it states, and a study stopped part way resumes to the same result."""

import json
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import jourdain
from conftest import NETLISTS
from jourdain import design

SERVO = NETLISTS / "position_servo.json"
OSCILLATOR = NETLISTS / "mass_spring_damper.json"

# The servo's valve (its full opening: the valve's gain) and the cylinder's viscous
# friction, as the synthetic machine has them; the netlist says 10 mm and 2000 N*s/m.
TRUTH = {"valve.max_opening": 0.012, "cylinder.viscous_friction": 2500.0}
NOISE = 0.5e-3  # m: the position sensor's noise (standard deviation)
SEED = 7


MEASURED = NETLISTS / "reference" / "position_servo_measured.csv"


@pytest.fixture(scope="module")
def measured():
    """The servo's load.x with TRUTH, every 2 ms over its 3 s, plus Gaussian noise: the
    measurement the repository ships (for the README's and the examples' fits), checked
    to be that."""
    result = jourdain.load(SERVO).run(TRUTH, report=False)
    t = np.arange(0.0, 3.0 + 1e-9, 0.002)
    keep = np.append(np.diff(result.time) > 0, True)
    x = np.interp(t, result.time[keep], result["load.x"][keep])
    x += np.random.default_rng(SEED).normal(0.0, NOISE, len(t))
    shipped = pd.read_csv(MEASURED)
    assert list(shipped.columns) == ["time [s]", "load.x [m]"]
    assert np.allclose(shipped["time [s]"], t, rtol=0, atol=1e-12)
    # (Within what another machine's libm may change in the run: far below the noise.)
    assert np.allclose(shipped["load.x [m]"], x, rtol=0, atol=1e-9)
    return MEASURED


BOUNDS = ["valve.max_opening=5e-3:20e-3", "cylinder.viscous_friction=500:5000"]


def test_fit_recovers_the_servo_parameters_with_intervals_that_cover_them(measured, tmp_path):
    found = design.fit(SERVO, measured, BOUNDS, workers=2, quiet=True, output_dir=tmp_path / "fit")
    assert found.converged, found.message
    assert found.warnings == []
    for name, truth in TRUTH.items():
        assert abs(found.estimates[name] / truth - 1) < 0.01, (name, found.estimates[name])
        low, high = found.intervals[name]
        assert low < truth < high, (name, low, high)
    # The residuals are the noise: their standard deviation (in metres, the weight undone)
    # is NOISE within what 1501 samples allow.
    residual = np.asarray(found.signals[0]["residual"])
    assert abs(np.std(residual) / NOISE - 1) < 0.1
    # The two are correlated (a wider valve and more friction both change the speed).
    assert found.correlation.shape == (2, 2) and -1 < found.correlation[0, 1] < -0.5
    summary = json.loads((tmp_path / "fit" / "summary.json").read_text())
    assert summary["kind"] == "fit" and summary["fit"]["estimates"] == pytest.approx(found.estimates)
    assert (tmp_path / "fit" / "runs" / "fitted" / "report.html").exists()


def test_fit_says_when_the_data_cannot_identify_a_parameter(measured):
    # The cylinder's end stops are never reached: the measurement says nothing of their damping.
    found = design.fit(SERVO, measured, BOUNDS + ["cylinder.stop_damping=5e4:2e5"], workers=2, quiet=True)
    assert any(w.startswith("cylinder.stop_damping: not identifiable") for w in found.warnings), found.warnings
    assert found.intervals["cylinder.stop_damping"] == (5e4, 2e5)
    assert math.isnan(found.std_errors["cylinder.stop_damping"])
    for name, truth in TRUTH.items():
        assert abs(found.estimates[name] / truth - 1) < 0.01


# The oscillator (1 kg, 100 N/m) released 0.1 m from rest: the integral of the squared
# position is x0^2 (1 + 4 zeta^2) / (4 zeta w0), the ISE of a second-order system's step
# response, least at zeta = 1/2, i.e. a damping of sqrt(k m) = 10 N*s/m, where it is
# x0^2 / w0 = 1e-3 m^2*s.
ISE_OPTIMUM = 10.0
ISE_LEAST = 1e-3
FINE = {"output_interval": 0.001}
# Long enough that the least damped oscillation studied (1 N*s/m, zeta = 0.05) has died out
# (its x^2 decays as e^-t): the integral to T_END is the closed form's within 2e-9.
T_END = 20


def ise(c):
    zeta = c / (2 * math.sqrt(100.0))
    return 0.01 * (1 + 4 * zeta**2) / (4 * zeta * 10.0)


@pytest.mark.parametrize("method", ["nelder-mead", "powell", "differential-evolution"])
def test_optimize_finds_the_damping_of_least_squared_error(method):
    found = design.optimize(OSCILLATOR, ["damper.damping=1:40"], "mass.x:integral_square", method=method, seed=1,
                            t_end=T_END, solver=FINE, workers=2, quiet=True)
    best = found.best["values"]["damper.damping"]
    assert abs(best / ISE_OPTIMUM - 1) < 1e-3, best
    assert found.best["objectives"][0] == pytest.approx(ISE_LEAST, rel=1e-6)
    # Every evaluation's figure is the closed form's at its damping (the runs' accuracy).
    for record in found.evaluations[:5]:
        assert record["objectives"][0] == pytest.approx(ise(record["values"]["damper.damping"]), rel=1e-6)


def test_a_constraint_keeps_the_optimum_within_its_limit():
    # The damper's peak force grows with its damping (5.5 N at 10 N*s/m): at most 4 N caps
    # the damping below the unconstrained optimum (at about 6 N*s/m), where the best point is.
    found = design.optimize(OSCILLATOR, ["damper.damping=1:40"], "mass.x:integral_square",
                            constraints=["damper.force:absmax<4 N"], method="differential-evolution", seed=2,
                            t_end=T_END, solver=FINE, workers=2, quiet=True)
    feasible = [r for r in found.evaluations if r["feasible"]]
    assert feasible and all(r["constraints"][0] < 4 for r in feasible)
    assert 5 < found.best["values"]["damper.damping"] < 7
    assert 3.9 < found.best["constraints"][0] < 4
    assert not any(r["feasible"] and r["objectives"][0] < found.best["objectives"][0] for r in found.evaluations)


def test_a_pareto_front_holds_the_figures_it_states(tmp_path):
    objectives = ["mass.x:integral_square", "damper.force:absmax"]
    found = design.optimize(OSCILLATOR, ["damper.damping=1:40"], objectives, method="nsga2", seed=3,
                            population=8, generations=4, t_end=T_END, solver=FINE, workers=2, quiet=True,
                            output_dir=tmp_path / "pareto")
    front = found.pareto
    assert len(front) >= 3
    # Nothing among the evaluations dominates a point of the front.
    for point in front:
        for other in found.evaluations:
            assert not (all(o <= p for o, p in zip(other["objectives"], point["objectives"]))
                        and any(o < p for o, p in zip(other["objectives"], point["objectives"])))
    # Each point, run again here, gives the figures stated; its report is there.
    model = jourdain.load(OSCILLATOR)
    for point in front:
        result = model.run(point["values"], solver=FINE, t_end=T_END, report=False)
        figures = [jourdain.study.output_value(o, result)[o] for o in objectives]
        assert figures == pytest.approx(point["objectives"], rel=1e-12)
        assert (tmp_path / "pareto" / point["report"]).exists()
    # Along the front, less squared error costs more damper force: the front's trade-off.
    by_ise = sorted(front, key=lambda p: p["objectives"][0])
    assert by_ise[0]["objectives"][1] >= by_ise[-1]["objectives"][1]


def test_a_study_stopped_part_way_resumes_to_the_same_result(tmp_path):
    arguments = dict(method="differential-evolution", seed=4, t_end=T_END, solver=FINE, workers=2, quiet=True)
    whole = design.optimize(OSCILLATOR, ["damper.damping=1:40"], "mass.x:integral_square",
                            output_dir=tmp_path / "whole", **arguments)
    # The same study, its folder left as a study killed after 40 evaluations leaves it.
    rows = (tmp_path / "whole" / "rows.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "part").mkdir()
    (tmp_path / "part" / "study.json").write_text((tmp_path / "whole" / "study.json").read_text())
    (tmp_path / "part" / "rows.jsonl").write_text("".join(rows[:40]) + rows[40][:20])  # and a torn line
    resumed = design.optimize(OSCILLATOR, ["damper.damping=1:40"], "mass.x:integral_square",
                              output_dir=tmp_path / "part", **arguments)
    # It ran what the whole study ran after those 40 rows (a point proposed again is not
    # run again but copied: "same_as").
    kept = {json.loads(row)["run"] for row in rows[:40]}
    rest = [json.loads(row) for row in rows if json.loads(row)["run"] not in kept]
    assert resumed.summary["evaluations_run"] == sum("same_as" not in row for row in rest) > 0
    assert resumed.best == whole.best
    assert [r["values"] for r in resumed.evaluations] == [r["values"] for r in whole.evaluations]


def test_the_command_line_runs_a_study_and_refuses_bad_input(tmp_path):
    out = tmp_path / "cli"
    command = [sys.executable, "-m", "jourdain", "optimize", str(OSCILLATOR), "--param", "damper.damping=1:40",
               "--objective", "mass.x:integral_square", "--constraint", "damper.force:absmax<4000 mN",
               "--t-end", str(T_END), "--solver", "output_interval=0.001", "--workers", "2", "-o", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("best: damper.damping = ")
    summary = json.loads((out / "summary.json").read_text())
    # 4000 mN in SI.
    assert summary["constraints"][0]["limit"] == pytest.approx(4) and summary["constraints"][0]["unit"] == "N"
    assert (out / "study.html").exists()
    bad = subprocess.run(command[:-2] + ["--param", "damper.damping=40:1", "-o", str(tmp_path / "bad")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "LOW < HIGH" in bad.stderr


PRESS = NETLISTS / "press_3150kN_fixed.json"


def test_the_press_pareto_front_of_shock_against_cycle_time(tmp_path):
    # The fixed press's decompression poppet (a larger one bleeds the cap faster: a shorter
    # cycle, a steeper pressure drop) and its main valve's speed, against the cap's peak
    # |dp/dt| and the time the cycle ends.
    objectives = ["cap_pressure.max_rate:final", "cycle.entered_top:final"]
    found = design.optimize(PRESS, ["prefill.decompression_area=5:30 mm^2", "main.natural_frequency=20:120"],
                            objectives, method="nsga2", seed=1, population=8, generations=3, workers=2, quiet=True,
                            output_dir=tmp_path / "press")
    front = sorted(found.pareto, key=lambda p: p["objectives"][0])
    assert len(front) >= 3
    # A gentler decompression costs cycle time, all along the front.
    assert all(a["objectives"][1] > b["objectives"][1] for a, b in zip(front, front[1:]))
    # Each point runs to the figures stated, and has its report.
    model = jourdain.load(PRESS)
    for point in front:
        values = {"prefill.decompression_area": f"{point['values']['prefill.decompression_area']!r} mm^2",
                  "main.natural_frequency": point["values"]["main.natural_frequency"]}
        result = model.run(values, report=False)
        figures = [jourdain.study.output_value(o, result)[o] for o in objectives]
        assert figures == pytest.approx(point["objectives"], rel=1e-12)
        assert (tmp_path / "press" / point["report"]).exists()
    page = (tmp_path / "press" / "study.html").read_text()
    assert all(point["report"] in page for point in front)


def test_fit_reads_a_measurement_in_other_units(measured, tmp_path):
    # The same measurement in millimetres: the same estimates, to a small fraction of
    # their standard error (the last bits of the converted numbers differ, and the
    # optimiser stops where the runs' own accuracy no longer tells points apart).
    frame = pd.read_csv(measured)
    in_mm = tmp_path / "measured_mm.csv"
    pd.DataFrame({"time [s]": frame["time [s]"], "load.x [mm]": 1000 * frame["load.x [m]"]}).to_csv(in_mm, index=False)
    a = design.fit(SERVO, measured, BOUNDS, workers=2, quiet=True)
    b = design.fit(SERVO, in_mm, BOUNDS, workers=2, quiet=True)
    for name in TRUTH:
        assert abs(b.estimates[name] - a.estimates[name]) < 0.05 * a.std_errors[name]
    wrong = tmp_path / "measured_kg.csv"
    pd.DataFrame({"time [s]": frame["time [s]"], "load.x [kg]": frame["load.x [m]"]}).to_csv(wrong, index=False)
    with pytest.raises(jourdain.InputError, match=r"load.x \[kg\]"):
        design.fit(SERVO, wrong, BOUNDS, workers=2, quiet=True)


def squared_position(result):
    """The ISE computed here, by hand: what a user's objective function may be."""
    return float(np.trapz(result["mass.x"] ** 2, result.time))


def test_an_objective_may_be_a_function_of_the_run():
    found = design.optimize(OSCILLATOR, ["damper.damping=1:40"], squared_position, method="nelder-mead",
                            t_end=T_END, solver=FINE, workers=2, quiet=True)
    assert abs(found.best["values"]["damper.damping"] / ISE_OPTIMUM - 1) < 1e-3
    assert found.summary["objectives"][0]["name"] == "squared_position"
