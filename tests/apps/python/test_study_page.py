"""study.html (jourdain/study_page.py): one self-contained page of a design study, a
parameter estimation or an optimisation, drawn from its summary. The page is the page
toolkit's (apps/page): these tests check what the study puts into it (the summary
itself, made plain JSON, and the page's name); that its script draws it is
tests/apps/report/test_report_browser.cpp."""

import copy
import json
import math
import re
from pathlib import PurePosixPath

import numpy as np
import pytest

from jourdain import study_page as stp

SVG_NS = "http://www.w3.org/2000/svg"
EVIL = "<script>x</script>"
EVIL_FILE = '<img src=x onerror="alert(1)">'  # a netlist's name without a slash: the page's title
DATA_OPEN = '<script id="report-data" type="application/json">'


def page_data(page):
    """The JSON object the page's script draws."""
    start = page.index(DATA_OPEN) + len(DATA_OPEN)
    return json.loads(page[start:page.index("</script>", start)])


def evaluation(index, opening, friction, objectives, pressure, *, status="finished", error="", report=None):
    return {"index": index, "values": {"valve.max_opening": opening, "cylinder.viscous_friction": friction},
            "objectives": objectives, "constraints": [pressure], "feasible": status == "finished" and pressure < 2.5e7,
            "status": status, "error": error, "wall_time_s": 0.02, "report": report}


def optimize_summary():
    """Two objectives, one constraint, 6 evaluations: 3 on the front (with reports),
    one infeasible, one failed."""
    return {
        "kind": "optimize", "netlist": "netlists/position_servo.json", "method": "nsga2", "seed": 0,
        "parameters": [{"name": "valve.max_opening", "unit": "mm", "low": 5, "high": 20, "start": 10},
                       {"name": "cylinder.viscous_friction", "unit": "N*s/m", "low": 100, "high": 5000, "start": 800}],
        "objectives": [{"name": "load.x:max", "sense": "min", "unit": "m"},
                       {"name": "supply.pressure:max", "sense": "min", "unit": "Pa"}],
        "constraints": [{"name": "supply.pressure:max", "op": "<", "limit": 2.5e7, "unit": "Pa",
                         "text": "supply.pressure:max<250 bar"}],
        "evaluations": [
            evaluation(0, 10.0, 800.0, [0.71, 2.1e7], 2.1e7, report="runs/0000/report.html"),
            evaluation(1, 15.0, 400.0, [0.52, 2.3e7], 2.3e7, report="runs/0001/report.html"),
            evaluation(2, 19.0, 150.0, [0.40, 2.7e7], 2.7e7, report="runs/0002/report.html"),
            evaluation(3, 6.0, 4000.0, [0.95, 1.2e7], 1.2e7, report="runs/0003/report.html"),
            evaluation(4, 8.0, 3000.0, [None, None], None, status="failed", error="solver diverged: h < hmin"),
            evaluation(5, 12.0, 900.0, [0.8, 2.2e7], 2.2e7, report="runs/0005/report.html"),
        ],
        "best": None,
        "pareto": [0, 1, 3],
        "warnings": ["1 evaluation failed"],
    }


def fit_summary():
    """Two parameters fitted to one signal; a correlation of -0.3."""
    time = [0.0, 0.1, 0.2, 0.3, 0.4]
    measured = [0.0, 0.011, 0.019, 0.032, 0.041]
    fitted = [0.0, 0.010, 0.020, 0.030, 0.040]
    return {
        "kind": "fit", "netlist": "netlists/position_servo.json", "method": "trf", "seed": None,
        "parameters": [{"name": "valve.max_opening", "unit": "mm", "low": 5, "high": 20, "start": 10},
                       {"name": "cylinder.viscous_friction", "unit": "N*s/m", "low": 100, "high": 5000, "start": 800}],
        "evaluations": [
            {"index": k, "values": {"valve.max_opening": 10.0 + 0.01 * k, "cylinder.viscous_friction": 800.0 - k},
             "objectives": [], "constraints": [], "feasible": True, "cost": 0.031 / (k + 1), "status": "finished",
             "error": "", "wall_time_s": 0.02, "report": None}
            for k in range(4)],
        "best": {"index": 3, "values": {"valve.max_opening": 10.03, "cylinder.viscous_friction": 797.0},
                 "objectives": []},
        "warnings": [],
        "fit": {
            "estimates": {"valve.max_opening": 10.02, "cylinder.viscous_friction": 797.0},
            "std_errors": {"valve.max_opening": 0.05, "cylinder.viscous_friction": 12.0},
            "intervals": {"valve.max_opening": [9.92, 10.12], "cylinder.viscous_friction": [773.5, 820.5]},
            "confidence": 0.95, "names": ["valve.max_opening", "cylinder.viscous_friction"],
            "correlation": [[1, -0.3], [-0.3, 1]],
            "residual_std": 0.001, "dof": 3, "cost": 0.0012,
            "signals": [{"variable": "load.x", "unit": "m", "time": time, "measured": measured, "fitted": fitted,
                         "residual": [m - f for m, f in zip(measured, fitted)]}],
        },
    }


# ---------------------------------------------------------------- the page

def test_page_structure():
    page = stp.study_page(optimize_summary())
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>Optimisation · position_servo · Jourdain design study</title>" in page
    # The data, then the toolkit's script with the study's: nothing else runs.
    assert page.count("<script") == 2
    # Only the SVG namespace may look like a URL: nothing is fetched.
    urls = re.findall(r"https?://[^\s\"'<>]*", page)
    assert urls and set(urls) == {SVG_NS}
    # The toolkit's log ticks are there for the fit's cost, and the study's script.
    assert "function logTicks(" in page and "function buildPareto(" in page


@pytest.mark.parametrize("make", [optimize_summary, fit_summary])
def test_the_summary_round_trips(make):
    summary = make()
    data = page_data(stp.study_page(summary))
    assert data["study"] == summary
    assert set(data) == {"name", "study"}


def test_names_say_kind_and_netlist():
    assert page_data(stp.study_page(fit_summary()))["name"] == "Parameter estimation · position_servo"
    summary = optimize_summary()
    summary["netlist"] = "C:\\studies\\press.json"
    assert stp.study_data(summary)["name"] == "Optimisation · press"
    del summary["netlist"]
    assert stp.study_data(summary)["name"] == "Optimisation"


def test_nan_numpy_and_paths_become_plain_json():
    summary = optimize_summary()
    failed = summary["evaluations"][4]
    failed["objectives"] = [math.nan, float("inf")]
    failed["constraints"] = np.array([np.nan])
    failed["wall_time_s"] = np.float32(0.5)
    failed["index"] = np.int64(4)
    failed["feasible"] = np.bool_(False)
    summary["netlist"] = PurePosixPath("netlists/position_servo.json")
    page = stp.study_page(summary)
    assert "NaN" not in page.split(DATA_OPEN)[1].split("</script>")[0]
    back = page_data(page)["study"]
    assert back["evaluations"][4]["objectives"] == [None, None]
    assert back["evaluations"][4]["constraints"] == [None]
    assert back["evaluations"][4]["wall_time_s"] == 0.5
    assert back["evaluations"][4]["index"] == 4 and back["evaluations"][4]["feasible"] is False
    assert back["netlist"] == "netlists/position_servo.json"


def test_hostile_names_only_appear_as_data():
    summary = optimize_summary()
    summary["netlist"] = f"netlists/{EVIL_FILE}.json"
    summary["parameters"][0]["name"] = EVIL
    summary["parameters"][0]["unit"] = EVIL
    for e in summary["evaluations"]:
        e["values"][EVIL] = e["values"].pop("valve.max_opening")
    summary["objectives"][1]["name"] = EVIL
    summary["constraints"][0]["text"] = EVIL
    summary["warnings"] = [EVIL]
    summary["evaluations"][4]["error"] = EVIL
    summary["evaluations"][1]["report"] = "javascript:alert(1)//" + EVIL
    page = stp.study_page(summary)
    assert EVIL not in page and "</script>x" not in page and EVIL_FILE not in page
    assert page.count("<script") == 2
    assert "<title>Optimisation · &lt;img src=x onerror=&quot;alert(1)&quot;&gt; · Jourdain design study</title>" in page
    data = page_data(page)
    assert data["study"] == summary
    assert data["name"] == "Optimisation · " + EVIL_FILE


def test_pareto_points_carry_their_reports():
    data = page_data(stp.study_page(optimize_summary()))["study"]
    by_index = {e["index"]: e for e in data["evaluations"]}
    assert data["pareto"] == [0, 1, 3]
    assert [by_index[i]["report"] for i in data["pareto"]] == [
        "runs/0000/report.html", "runs/0001/report.html", "runs/0003/report.html"]
    assert len(data["objectives"]) == 2
    # The failed evaluation has no objectives and no report.
    assert by_index[4]["objectives"] == [None, None] and by_index[4]["report"] is None


def test_fit_tables_data():
    fit = page_data(stp.study_page(fit_summary()))["study"]["fit"]
    assert fit["confidence"] == 0.95
    assert fit["names"] == ["valve.max_opening", "cylinder.viscous_friction"]
    for name in fit["names"]:
        low, high = fit["intervals"][name]
        assert low < fit["estimates"][name] < high and fit["std_errors"][name] > 0
    assert fit["correlation"] == [[1, -0.3], [-0.3, 1]]
    signal = fit["signals"][0]
    assert len(signal["time"]) == len(signal["measured"]) == len(signal["fitted"]) == len(signal["residual"]) == 5


def test_output_is_deterministic(tmp_path):
    first = stp.study_page(fit_summary())
    assert first == stp.study_page(copy.deepcopy(fit_summary()))
    path = stp.write_study_page(tmp_path / "made" / "here", fit_summary())
    assert path == tmp_path / "made" / "here" / "study.html"
    assert path.read_bytes() == first.encode("utf-8")
    # Rewritten over itself, byte for byte, with nothing left beside it.
    stp.write_study_page(path.parent, fit_summary())
    assert path.read_bytes() == first.encode("utf-8")
    assert [p.name for p in path.parent.iterdir()] == ["study.html"]


def test_the_summary_is_not_changed():
    summary = optimize_summary()
    summary["evaluations"][4]["wall_time_s"] = np.float64(0.3)
    before = copy.deepcopy(summary)
    stp.study_page(summary)
    assert summary == before and type(summary["evaluations"][4]["wall_time_s"]) is np.float64


def test_a_bad_summary_is_named():
    summary = optimize_summary()
    del summary["evaluations"]
    with pytest.raises(KeyError, match="evaluations"):
        stp.study_page(summary)
    with pytest.raises(ValueError, match="'sweep'"):
        stp.study_page({**optimize_summary(), "kind": "sweep"})
    with pytest.raises(TypeError, match=r"summary\.evaluations\[0\]\.values\.valve\.max_opening: a set"):
        bad = optimize_summary()
        bad["evaluations"][0]["values"]["valve.max_opening"] = {1.0}
        stp.study_page(bad)


def test_an_empty_study_renders():
    summary = {"kind": "optimize", "parameters": [], "evaluations": []}
    data = page_data(stp.study_page(summary))
    assert data == {"name": "Optimisation", "study": summary}
