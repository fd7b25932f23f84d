"""sweep.html (jourdain/sweep_page.py): one self-contained page of a parameter study, with
a scatter plot per output and parameter and a table of the runs. The page is the page
toolkit's (apps/page): these tests check what the study puts into it; that its script
draws it is tests/apps/report/test_report_browser.cpp."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from jourdain import sweep_page as sp

SVG_NS = "http://www.w3.org/2000/svg"
EVIL = "<script>x</script>"
DATA_OPEN = '<script id="report-data" type="application/json">'


def page_data(page):
    """The JSON object the page's script draws."""
    start = page.index(DATA_OPEN) + len(DATA_OPEN)
    return json.loads(page[start:page.index("</script>", start)])


def study_frame():
    """2 parameters x 2 outputs, 5 runs, run 3 failed with NaN outputs."""
    return pd.DataFrame({
        "run": [0, 1, 2, 3, 4],
        "relief.cracking_pressure": [150.0, 175.0, 200.0, 225.0, 250.0],
        EVIL: [0.1, 0.2, 0.3, 0.4, 0.5],
        "load.x:max": [0.011, 0.012, 0.0135, np.nan, 0.016],
        "press.p:max_abs_rate": [1.2e9, 1.5e9, 1.9e9, np.nan, 2.4e9],
        "status": ["finished", "finished", "finished", "failed", "finished"],
        "error": ["", "", "", "solver diverged: h < hmin & t > 0.5", ""],
        "wall_time_s": [1.25, 1.3, 1.27, 0.4, 1.31],
    })


PARAMETERS = ["relief.cracking_pressure", EVIL]
OUTPUTS = ["load.x:max", "press.p:max_abs_rate"]
UNITS = {"relief.cracking_pressure": "bar", "load.x:max": "m", "press.p:max_abs_rate": "Pa/s"}


def render_study(**overrides):
    kwargs = dict(title="Relief valve study", units=UNITS,
                  notes=["netlist: circuits/relief.jn", "5 runs"])
    kwargs.update(overrides)
    return sp.sweep_page(study_frame(), PARAMETERS, OUTPUTS, **kwargs)


# ---------------------------------------------------------------- the page

def test_page_structure_and_content():
    page = render_study()
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>Relief valve study · Jourdain parameter study</title>" in page
    # The data, then the toolkit's script with the sweep's: nothing else runs.
    assert page.count("<script") == 2
    # Only the SVG namespace may look like a URL: nothing is fetched.
    urls = re.findall(r"https?://[^\s\"'<>]*", page)
    assert urls and set(urls) == {SVG_NS}

    data = page_data(page)
    # Header: title, notes, counts.
    assert data["name"] == "Relief valve study"
    assert data["notes"] == ["netlist: circuits/relief.jn", "5 runs"]
    assert data["counts"] == "5 runs, 4 finished, 1 failed"
    # A plot per output and parameter, outputs by row, a column per parameter.
    assert data["columns"] == 2
    assert [(p["y"], p["x"]) for p in data["plots"]] == [
        ("load.x:max [m]", "relief.cracking_pressure [bar]"), ("load.x:max [m]", EVIL),
        ("press.p:max_abs_rate [Pa/s]", "relief.cracking_pressure [bar]"), ("press.p:max_abs_rate [Pa/s]", EVIL)]

    # Table: one row per run, in frame order, only the failed one marked.
    table = data["table"]
    assert table["head"] == ["run", "status", "relief.cracking_pressure [bar]", EVIL, "load.x:max [m]",
                             "press.p:max_abs_rate [Pa/s]", "wall time [s]", "error"]
    rows = table["rows"]
    assert [row["cells"][0] for row in rows] == ["0", "1", "2", "3", "4"]
    assert [i for i, row in enumerate(rows) if row["failed"]] == [3]
    failed_cells = rows[3]["cells"]
    assert "failed" in failed_cells
    assert failed_cells.count("NaN") == 2
    assert failed_cells[table["error_column"]] == "solver diverged: h < hmin & t > 0.5"
    # Six significant digits.
    assert "1.2e+09" in rows[0]["cells"]
    assert "0.0135" in rows[2]["cells"]


def test_malicious_names_only_appear_as_data():
    page = render_study(title=EVIL, notes=[EVIL], units={**UNITS, EVIL: EVIL})
    assert EVIL not in page
    assert page.count("<script") == 2
    data = page_data(page)
    assert data["name"] == EVIL and data["notes"] == [EVIL]
    assert f"{EVIL} [{EVIL}]" in data["table"]["head"]


def test_failed_runs_are_not_plotted():
    plots = page_data(render_study())["plots"]
    # 4 plots x 4 finished runs; the failed run has NaN outputs.
    assert [len(p["points"]) for p in plots] == [4, 4, 4, 4]
    assert not any(point[0] == "3" for p in plots for point in p["points"])


def test_output_is_deterministic():
    assert render_study() == render_study()


def test_all_nan_output_gives_empty_plots_not_crash():
    frame = study_frame()
    frame["load.x:max"] = np.nan
    plots = page_data(sp.sweep_page(frame, PARAMETERS, OUTPUTS, title="t"))["plots"]
    assert [len(p["points"]) for p in plots] == [0, 0, 4, 4]  # only the press.p plots have points


def test_single_run():
    frame = study_frame().iloc[[0]].copy()
    data = page_data(sp.sweep_page(frame, PARAMETERS, OUTPUTS, title="one run"))
    assert data["counts"] == "1 run, 1 finished, 0 failed"
    assert [p["points"] for p in data["plots"][:1]] == [[["0", 150.0, 0.011]]]


def test_one_parameter_sweep_joins_its_points():
    frame = pd.DataFrame({
        "run": [0, 1, 2, 3],
        "p": [3.0, 1.0, 2.0, 0.0],
        "y": [9.0, 1.0, 4.0, 0.0],
        "status": ["finished"] * 4, "error": [""] * 4, "wall_time_s": [1.0] * 4,
    })
    data = page_data(sp.sweep_page(frame, ["p"], ["y"], title="1-D"))
    assert [p["join"] for p in data["plots"]] == [True]
    assert data["columns"] == 1
    # Two parameters: no curve, the runs are not ordered along one axis.
    assert not any(p["join"] for p in page_data(render_study())["plots"])


def test_missing_column_is_reported():
    with pytest.raises(KeyError, match="no.such"):
        sp.sweep_page(study_frame(), ["no.such"], OUTPUTS, title="t")


def test_the_page_has_no_tick_code_of_its_own():
    # Axis ticks are the toolkit's (plot.js), shared with report.html.
    assert not any(hasattr(sp, name) for name in ("nice_ticks", "choose_ticks", "format_tick_labels"))
