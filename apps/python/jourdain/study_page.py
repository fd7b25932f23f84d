"""Render a design study (a parameter estimation or an optimisation) as one
self-contained HTML page (study.html).

The page is built by Jourdain's page toolkit (apps/page), as report.html and sweep.html
are: one template, the toolkit's style and script (axis ticks, plot surfaces, tables)
and the study's own (study.css, study.js), with the study as JSON data. It fetches
nothing, so it opens straight from disk, mailed, or archived next to the results.

The page's data is the study's summary itself (the summary.json a study writes: its
parameters, objectives, constraints, every evaluation, the best point, the Pareto
points, the fit's statistics and signals), so the page shows what the file says and
nothing drawn can drift from it; study.js derives the rest (the best so far, the
tables' cells). This module checks the summary's frame, makes its values plain JSON
(NaN and infinities as null, NumPy values as numbers) and names the page.

Public entry points:

* :func:`study_page` -- the whole page as a string.
* :func:`write_study_page` -- the page written as ``study.html`` into a folder.
* :func:`study_data` -- the data the page's script draws, as a dict.

They are pure functions of the summary: the same summary gives the same bytes, so pages
can be diffed and checked into regression suites.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np

from . import _jourdain

__all__ = ["study_page", "study_data", "write_study_page"]

PAGE_FILE = "study.html"
KINDS = {"fit": "Parameter estimation", "optimize": "Optimisation"}
# What every summary has; the rest (objectives, constraints, best, pareto, fit,
# warnings) depends on the study and the page does without it.
REQUIRED_KEYS = ("kind", "parameters", "evaluations")


def plain_json(value: Any, where: str = "summary") -> Any:
    """The value as plain JSON: non-finite numbers as null (the summary's NaN), NumPy
    scalars and arrays as numbers and lists, paths as text. Anything else is a mistake
    of the summary's writer, named by where it sits."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(key): plain_json(item, f"{where}.{key}") for key, item in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain_json(item, f"{where}[{k}]") for k, item in enumerate(value)]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    raise TypeError(f"{where}: a {type(value).__name__} has no place in a study's summary")


def check_summary(summary: dict) -> None:
    """Fail early, naming what is wrong, instead of a page that shows nothing."""
    if not isinstance(summary, dict):
        raise TypeError(f"a study's summary is a dict, not a {type(summary).__name__}")
    missing = [key for key in REQUIRED_KEYS if key not in summary]
    if missing:
        raise KeyError(f"study summary lacks key(s): {', '.join(missing)}")
    if summary["kind"] not in KINDS:
        raise ValueError(f"study summary: kind {summary['kind']!r} is neither 'fit' nor 'optimize'")


def page_name(summary: dict) -> str:
    """'Parameter estimation · position_servo': the study's kind and its netlist's name."""
    netlist = summary.get("netlist")
    # The stem however the path was written (a study run on Windows writes backslashes).
    stem = PurePosixPath(str(netlist).replace("\\", "/")).stem if netlist else ""
    return f"{KINDS[summary['kind']]} · {stem}" if stem else KINDS[summary["kind"]]


def study_data(summary: dict) -> dict:
    """What the page's script (study.js) draws: the page's name and the summary."""
    check_summary(summary)
    return {"name": page_name(summary), "study": plain_json(summary)}


def study_page(summary: dict) -> str:
    """Return one self-contained HTML5 page of a design study.

    summary: a study's summary (summary.json's content; see the module's docstring).
    Names, units, warnings and errors reach the page as JSON data, which the script
    shows as text, never as markup; a report's address becomes a link only when it is
    relative (as "runs/0007/report.html").
    """
    return _jourdain.render_page("study", json.dumps(study_data(summary), allow_nan=False))


def write_study_page(folder: str | os.PathLike, summary: dict) -> Path:
    """Write the page as ``folder/study.html`` (the folder made when missing) and return
    its path. The file is written beside and then renamed, so that a reader never
    opens half a page."""
    page = study_page(summary)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / PAGE_FILE
    partial = folder / f"{PAGE_FILE}.{os.getpid()}.part"
    try:
        partial.write_text(page, encoding="utf-8")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target
