"""sweep.html (jourdain/sweep_page.py): one self-contained page of a parameter study, with
a scatter plot per output and parameter and a table of the runs."""

import math
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from jourdain import sweep_page as sp

SVG_NS = "http://www.w3.org/2000/svg"
EVIL = "<script>x</script>"


class PageStructure(HTMLParser):
    """Collects the page structure the tests check, and fails on bad nesting."""

    VOID = {"meta", "br", "hr", "img", "input", "link", "line", "circle", "rect", "polyline", "path"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.svg_in_grid = 0
        self.body_rows = []  # one dict per <tbody><tr>
        self.circles = []  # attrs of each <circle>, in order
        self.scripts = 0
        self.text = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg" and any(t == "section" and a.get("class") == "plots" for t, a in self.stack):
            self.svg_in_grid += 1
        if tag == "tr" and any(t == "tbody" for t, _ in self.stack):
            self.body_rows.append({"attrs": attrs, "cells": []})
        if tag == "td" and self.body_rows:
            self.body_rows[-1]["cells"].append("")
        if tag == "circle":
            self.circles.append(attrs)
        if tag == "script":
            self.scripts += 1
        if tag not in self.VOID:
            self.stack.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        # <line .../> style: record like a start tag, but never push.
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self.stack, f"</{tag}> without an open element"
        open_tag, _ = self.stack.pop()
        assert open_tag == tag, f"</{tag}> closes <{open_tag}>"

    def handle_data(self, data):
        self.text.append(data)
        if self.stack and self.stack[-1][0] == "td" and self.body_rows:
            self.body_rows[-1]["cells"][-1] += data


def parse(page):
    parser = PageStructure()
    parser.feed(page)
    parser.close()
    assert parser.stack == [], f"unclosed elements: {[t for t, _ in parser.stack]}"
    return parser


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
    doc = parse(page)

    assert page.startswith("<!DOCTYPE html>")
    assert doc.svg_in_grid == 4
    assert page.count("<svg") == 4
    assert doc.scripts == 0

    # Only the SVG namespace may look like a URL: nothing is fetched.
    urls = re.findall(r"https?://[^\s\"'<>]*", page)
    assert urls and set(urls) == {SVG_NS}

    # Header: title, notes, counts.
    assert "<h1>Relief valve study</h1>" in page
    assert "netlist: circuits/relief.jn" in page
    assert "5 runs, 4 finished, 1 failed" in page

    # Table: one row per run, in frame order, only the failed one marked.
    assert len(doc.body_rows) == 5
    assert [row["cells"][0] for row in doc.body_rows] == ["0", "1", "2", "3", "4"]
    marked = [i for i, row in enumerate(doc.body_rows) if "failed" in (row["attrs"].get("class") or "")]
    assert marked == [3]
    failed_cells = doc.body_rows[3]["cells"]
    assert "failed" in failed_cells
    assert failed_cells.count("NaN") == 2
    assert failed_cells[-1] == "solver diverged: h < hmin & t > 0.5"  # decoded text
    assert "solver diverged: h &lt; hmin &amp; t &gt; 0.5" in page  # escaped source
    # Six significant digits.
    assert "1.2e+09" in doc.body_rows[0]["cells"]
    assert "0.0135" in doc.body_rows[2]["cells"]

    # Units in axis titles (and table headers).
    axis_titles = re.findall(r'<text class="axis-title"[^>]*>([^<]*)</text>', page)
    assert "relief.cracking_pressure [bar]" in axis_titles
    assert "load.x:max [m]" in axis_titles
    assert "press.p:max_abs_rate [Pa/s]" in axis_titles


def test_malicious_names_only_appear_escaped():
    page = render_study(title=EVIL, notes=[EVIL], units={**UNITS, EVIL: EVIL})
    assert "<script" not in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert parse(page).scripts == 0


def test_failed_runs_are_not_plotted():
    doc = parse(render_study())
    # 4 plots x 4 finished runs; the failed run has NaN outputs.
    assert len(doc.circles) == 16
    page = render_study()
    tooltips = re.findall(r"<circle[^>]*><title>([^<]*)</title>", page)
    assert len(tooltips) == 16
    assert not any(t.startswith("run 3:") for t in tooltips)


def test_output_is_deterministic():
    assert render_study() == render_study()


def test_all_nan_output_gives_placeholder_not_crash():
    frame = study_frame()
    frame["load.x:max"] = np.nan
    page = sp.sweep_page(frame, PARAMETERS, OUTPUTS, title="t")
    doc = parse(page)
    assert doc.svg_in_grid == 4
    assert page.count("no finished run") >= 2
    assert len(doc.circles) == 8  # only the press.p plots have points


def test_single_point_and_constant_column():
    frame = study_frame().iloc[[0]].copy()
    page = sp.sweep_page(frame, PARAMETERS, OUTPUTS, title="one run")
    doc = parse(page)
    assert len(doc.circles) == 4
    assert "1 run, 1 finished, 0 failed" in page
    # A lone point sits mid-axis because the constant range is widened.
    cx = float(doc.circles[0]["cx"])
    left, right, _, _ = sp.plot_area()
    assert left < cx < right


def test_one_parameter_sweep_draws_a_curve_in_x_order():
    frame = pd.DataFrame({
        "run": [0, 1, 2, 3],
        "p": [3.0, 1.0, 2.0, 0.0],
        "y": [9.0, 1.0, 4.0, 0.0],
        "status": ["finished"] * 4, "error": [""] * 4, "wall_time_s": [1.0] * 4,
    })
    page = sp.sweep_page(frame, ["p"], ["y"], title="1-D")
    points = re.search(r'<polyline class="curve" points="([^"]*)"', page).group(1)
    xs = [float(pair.split(",")[0]) for pair in points.split()]
    assert len(xs) == 4 and xs == sorted(xs)
    # Two parameters: no curve, the runs are not ordered along one axis.
    assert "<polyline" not in render_study()


def test_point_coordinates_map_linearly():
    frame = pd.DataFrame({
        "run": [0, 1, 2, 3],
        "p": [0.0, 0.25, 0.5, 1.0],  # 0..1 gives ticks 0..1, so no padding
        "y": [10.0, 20.0, 15.0, 12.0],
        "status": ["finished"] * 4, "error": [""] * 4, "wall_time_s": [1.0] * 4,
    })
    page = sp.sweep_page(frame, ["p"], ["y"], title="linear")
    doc = parse(page)
    cx = sorted(float(c["cx"]) for c in doc.circles)
    left, right, top, bottom = sp.plot_area()
    assert cx[0] == pytest.approx(left)
    assert cx[-1] == pytest.approx(right)
    assert cx[1] == pytest.approx(left + 0.25 * (right - left), abs=0.01)
    assert cx[2] == pytest.approx(left + 0.5 * (right - left), abs=0.01)
    # y grows upwards: the largest output has the smallest cy, inside the area.
    cy_by_y = {float(frame["y"][i]): float(doc.circles[i]["cy"]) for i in range(4)}
    assert min(cy_by_y.values()) == cy_by_y[20.0]
    assert all(top <= cy <= bottom for cy in cy_by_y.values())
    # Coordinates carry at most 2 decimals.
    for c in doc.circles:
        assert re.fullmatch(r"-?\d+(\.\d{1,2})?", c["cx"])
        assert re.fullmatch(r"-?\d+(\.\d{1,2})?", c["cy"])


def test_missing_column_is_reported():
    with pytest.raises(KeyError, match="no.such"):
        sp.sweep_page(study_frame(), ["no.such"], OUTPUTS, title="t")


# ---------------------------------------------------------------- ticks

def is_one_two_five_step(ticks):
    steps = np.diff(ticks)
    step = steps[0]
    assert np.allclose(steps, step, rtol=1e-9, atol=0)
    mantissa = step / 10.0 ** math.floor(math.log10(step))
    return any(math.isclose(mantissa, m, rel_tol=1e-9) for m in (1, 2, 5))


@pytest.mark.parametrize("low, high", [
    (0.0, 1.0), (180.0, 220.0), (1e-6, 3e-6), (-5.0, -1.0), (-3.0, 7.0),
    (-2e-7, -1e-7), (0.3, 0.7), (1e9, 3e9), (-0.013, 0.027),
])
def test_ticks_are_one_two_five_and_cover_range(low, high):
    ticks = sp.nice_ticks(low, high)
    assert 4 <= len(ticks) <= 6
    assert ticks[0] <= low and ticks[-1] >= high
    assert is_one_two_five_step(ticks)
    # Ticks are multiples of the step, so labels are round numbers.
    step = ticks[1] - ticks[0]
    assert all(math.isclose(t / step, round(t / step), abs_tol=1e-9) for t in ticks)


def test_ticks_exact_values_for_common_ranges():
    assert sp.nice_ticks(0, 1) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert sp.nice_ticks(180, 220) == [180.0, 190.0, 200.0, 210.0, 220.0]
    assert sp.nice_ticks(1e-6, 3e-6) == [1e-6, 1.5e-6, 2e-6, 2.5e-6, 3e-6]
    assert sp.nice_ticks(-5, -1) == [-5.0, -4.0, -3.0, -2.0, -1.0]


@pytest.mark.parametrize("value", [0.0, 200.0, -3.5, 1e-6])
def test_ticks_for_a_constant_value_surround_it(value):
    ticks = sp.nice_ticks(value, value)
    assert 4 <= len(ticks) <= 6
    assert ticks[0] < value < ticks[-1]
    assert is_one_two_five_step(ticks)


@pytest.mark.parametrize("low, high", [(0.0, 5e-324), (-1e-300, 3e-310), (1e-320, 1e-320)])
def test_ticks_for_numerically_zero_values_are_those_of_zero(low, high):
    assert sp.nice_ticks(low, high) == sp.nice_ticks(0.0, 0.0)


def test_ticks_reject_non_finite_bounds():
    with pytest.raises(ValueError):
        sp.nice_ticks(0.0, float("nan"))


def test_tick_labels_are_short_and_distinct():
    for low, high in [(0, 1), (180, 220), (1e-6, 3e-6), (1e6, 1e6 + 10), (1e9, 3e9)]:
        ticks, exponent = sp.choose_ticks(low, high)
        labels = sp.format_tick_labels(ticks, exponent)
        assert len(set(labels)) == len(labels)
        assert max(len(label) for label in labels) <= 8
        assert [float(label) for label in labels] == pytest.approx(ticks)
