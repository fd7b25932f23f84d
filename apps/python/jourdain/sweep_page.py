"""Render a parameter study as one self-contained HTML page (sweep.html).

The page is built by Jourdain's page toolkit (apps/page), as report.html is: one
template, the toolkit's style and script (axis ticks, plot surfaces, tables) and the
sweep's own (sweep.css, sweep.js), with the study as JSON data. It fetches nothing, so
it opens straight from disk, mailed, or archived next to the results.

This module only decides what the page shows: the finished runs' points of each output
against each parameter, and every run's row in the table with its numbers written out.

Public entry points:

* :func:`sweep_page` -- the whole page as a string.
* :func:`sweep_data` -- the data the page's script draws, as a dict.

Both are pure functions of their arguments: the same frame gives the same bytes, so
pages can be diffed and checked into regression suites.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from . import _jourdain

__all__ = ["sweep_page", "sweep_data"]

# Columns every sweep frame carries besides the parameters and outputs.
REQUIRED_RUN_COLUMNS = ("run", "status", "error", "wall_time_s")
FINISHED = "finished"


def table_number(value) -> str:
    """Six significant digits for the run table; failed values read "NaN"."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if value == 0.0:
        return "0"  # avoids "-0" from -0.0
    return f"{value:.6g}"


def axis_title(name: str, units: dict) -> str:
    """Column name with its unit, as "name [unit]" when a unit is known."""
    unit = units.get(name)
    return f"{name} [{unit}]" if unit else str(name)


def numeric_column(frame: pd.DataFrame, name: str) -> np.ndarray:
    """A column as float64; anything unparsable becomes NaN (a failed value)."""
    return pd.to_numeric(frame[name], errors="coerce").to_numpy(dtype=float)


def text_column(frame: pd.DataFrame, name: str) -> list[str]:
    """A column as strings, with missing values (None/NaN) as ''."""
    return ["" if value is None or (isinstance(value, float) and math.isnan(value))
            else str(value) for value in frame[name].tolist()]


def check_columns(frame: pd.DataFrame, parameters, outputs) -> None:
    """Fail early with the list of missing columns instead of a deep KeyError."""
    wanted = list(parameters) + list(outputs) + list(REQUIRED_RUN_COLUMNS)
    missing = [name for name in wanted if name not in frame.columns]
    if missing:
        raise KeyError(f"sweep frame lacks column(s): {', '.join(map(str, missing))}")


def plottable_points(x, y, finished):
    """Mask of runs to draw: finished, with a finite parameter and output.

    A run that did not finish is left out even if it reported a number,
    since a partial result would sit among real ones looking valid.
    """
    return finished & np.isfinite(x) & np.isfinite(y)


def run_counts_line(statuses: list[str]) -> str:
    """'N runs, K finished, F failed', F counting every unfinished run.

    When unfinished runs have several statuses (failed, error, ...), the
    split is given in parentheses so "error" runs are not silently merged.
    """
    total = len(statuses)
    finished = sum(1 for s in statuses if s == FINISHED)
    unfinished = [s for s in statuses if s != FINISHED]
    line = f"{total} run{'s' if total != 1 else ''}, {finished} finished, {len(unfinished)} failed"
    kinds = sorted(set(unfinished))
    if len(kinds) > 1 or (kinds and kinds != ["failed"]):
        split = ", ".join(f"{unfinished.count(kind)} {kind or 'no status'}" for kind in kinds)
        line += f" ({split})"
    return line


def plots_data(frame, parameters, outputs, units) -> list[dict]:
    """One plot per output and parameter, outputs by row: the finished runs' points."""
    finished = np.array([s == FINISHED for s in text_column(frame, "status")], dtype=bool)
    runs = text_column(frame, "run")
    plots = []
    for output in outputs:
        y_all = numeric_column(frame, output)
        for parameter in parameters:
            x_all = numeric_column(frame, parameter)
            keep = plottable_points(x_all, y_all, finished)
            points = [[runs[i], float(x_all[i]), float(y_all[i])] for i in np.flatnonzero(keep)]
            plots.append({"x": axis_title(parameter, units), "y": axis_title(output, units),
                          "join": len(parameters) == 1, "points": points})
    return plots


def table_data(frame, parameters, outputs, units) -> dict:
    """Every run, in frame order, its cells written as the table shows them."""
    numeric_names = list(parameters) + list(outputs) + ["wall_time_s"]
    numeric = {name: numeric_column(frame, name) for name in numeric_names}
    runs = text_column(frame, "run")
    statuses = text_column(frame, "status")
    errors = text_column(frame, "error")
    head = (["run", "status"] + [axis_title(n, units) for n in parameters]
            + [axis_title(n, units) for n in outputs] + ["wall time [s]", "error"])
    rows = []
    for row in range(len(frame)):
        cells = ([runs[row], statuses[row]] + [table_number(numeric[name][row]) for name in numeric_names]
                 + [errors[row]])
        rows.append({"status": statuses[row], "failed": statuses[row] != FINISHED, "cells": cells})
    numeric_cells = [True, False] + [True] * len(numeric_names) + [False]
    return {"head": head, "rows": rows, "numeric": numeric_cells, "error_column": len(head) - 1}


def sweep_data(frame, parameters, outputs, *, title, units=None, notes=None) -> dict:
    """What the page's script (sweep.js) draws: see :func:`sweep_page`."""
    parameters = list(parameters)
    outputs = list(outputs)
    units = dict(units or {})
    check_columns(frame, parameters, outputs)
    return {"name": str(title), "notes": [str(note) for note in (notes or [])],
            "counts": run_counts_line(text_column(frame, "status")), "columns": max(1, len(parameters)),
            "plots": plots_data(frame, parameters, outputs, units),
            "table": table_data(frame, parameters, outputs, units)}


def sweep_page(frame, parameters, outputs, *, title, units=None, notes=None) -> str:
    """Return one self-contained HTML5 page summarising a parameter study.

    frame: one row per run with the `parameters` and `outputs` columns plus
    run, status, error and wall_time_s.  Outputs may be NaN for failed runs.
    units maps column names to unit strings for axis labels; notes are short
    lines shown under the title.  User-provided strings reach the page as JSON
    data, which the script shows as text, never as markup.
    """
    data = sweep_data(frame, parameters, outputs, title=title, units=units, notes=notes)
    return _jourdain.render_page("sweep", json.dumps(data, allow_nan=False))
