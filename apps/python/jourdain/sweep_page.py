"""Render a parameter study as one self-contained HTML page.

The page is meant to be opened straight from disk, mailed, or archived next to
the results, so it contains no JavaScript, no external fonts, images or style
sheets: only inline CSS and inline SVG.  The only URL in it is the SVG
namespace, which browsers need and never fetch.

Public entry points:

* :func:`sweep_page` -- the whole page as a string.
* :func:`nice_ticks` -- 1-2-5 axis ticks covering a value range (exposed
  because it is useful and testable on its own).

Everything here is a pure function of its arguments: the same frame gives the
same bytes, so pages can be diffed and checked into regression suites.
"""

from __future__ import annotations

import html
import math

import numpy as np
import pandas as pd

__all__ = ["sweep_page", "nice_ticks", "format_tick_labels"]

# Columns every sweep frame carries besides the parameters and outputs.
REQUIRED_RUN_COLUMNS = ("run", "status", "error", "wall_time_s")
FINISHED = "finished"

# Plot geometry in SVG user units.  The left margin is the widest, because the
# y tick labels (up to e.g. "-1.25e-06") and the rotated y title live there.
PLOT_WIDTH = 360
PLOT_HEIGHT = 270
MARGIN_LEFT = 74
MARGIN_RIGHT = 16
MARGIN_TOP = 14
MARGIN_BOTTOM = 48
TICK_LENGTH = 5
POINT_RADIUS = 3

# Mantissas of the 1-2-5 ladder, and the tick count we aim for.
NICE_MANTISSAS = (1, 2, 5)
PREFERRED_TICKS = 5
MIN_TICKS, MAX_TICKS = 4, 6


# --------------------------------------------------------------------------
# Escaping and number formatting
# --------------------------------------------------------------------------

def escape(value) -> str:
    """Escape anything user-provided (names, units, notes, errors) for HTML."""
    return html.escape(str(value), quote=True)


def svg_number(value: float) -> str:
    """Format an SVG coordinate rounded to 2 decimals, without noise.

    Trailing zeros are dropped to keep the page small, and "-0" is avoided so
    that output stays byte-identical whatever the sign of a rounded zero.
    """
    text = f"{round(float(value), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


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


# --------------------------------------------------------------------------
# Ticks
# --------------------------------------------------------------------------

# Values smaller than this are drawn as zero: a tick step of a thousandth of such a range
# would be a subnormal number, or 0 (a damped oscillator's position after 1000 s is 1e-320).
NUMERICALLY_ZERO = 1e-290


def widen_degenerate_range(low: float, high: float) -> tuple[float, float]:
    """Give a constant column a visible range around its single value.

    10 % either side keeps the value in the middle of the axis and still shows
    ticks at its own scale (200 gives 180..220, not -1000..1000).
    """
    if max(abs(low), abs(high)) < NUMERICALLY_ZERO:
        return -1.0, 1.0
    if high > low:
        return low, high
    if low == 0.0:
        return -1.0, 1.0
    pad = abs(low) * 0.1
    return low - pad, high + pad


def snap_to_integer(quotient: float) -> float:
    """Undo float noise such as 3e-6 / 5e-7 == 5.999999999999999.

    Without this, floor/ceil add a spurious extra tick at either end.
    """
    nearest = round(quotient)
    if abs(quotient - nearest) <= 1e-9 * max(1.0, abs(quotient)):
        return float(nearest)
    return quotient


def decimal_tick(index: int, mantissa: int, exponent: int) -> float:
    """The value index * mantissa * 10**exponent, parsed from decimal text.

    Going through the decimal string gives 0.3 rather than
    0.30000000000000004, so the labels and coordinates come out clean.
    """
    return float(f"{index * mantissa}e{exponent}")


def candidate_tick_sets(low: float, high: float):
    """Yield (step, ticks, exponent) for 1-2-5 steps around the range's scale."""
    span = high - low
    base_exponent = math.floor(math.log10(span))
    # Steps from span/1000 to 50*span bracket every useful tick count.
    for exponent in range(base_exponent - 2, base_exponent + 2):
        for mantissa in NICE_MANTISSAS:
            step = float(f"{mantissa}e{exponent}")
            first = math.floor(snap_to_integer(low / step))
            last = math.ceil(snap_to_integer(high / step))
            if last - first + 1 > 1000:
                continue  # far too fine; skip before building a huge list
            ticks = [decimal_tick(i, mantissa, exponent) for i in range(first, last + 1)]
            yield step, ticks, exponent


def choose_ticks(low: float, high: float) -> tuple[list[float], int]:
    """Pick the 1-2-5 tick set for [low, high]; also return the step's exponent.

    Preference order: a count within MIN_TICKS..MAX_TICKS, then the count
    nearest PREFERRED_TICKS, then more ticks.  Some ranges (e.g. 5.1..14.9)
    admit no covering 1-2-5 set of 4-6 ticks (step 2 gives 7, step 5 gives 3);
    they get the nearest count instead of a non-1-2-5 step.
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"tick range must be finite, got {low!r}..{high!r}")
    if low > high:
        low, high = high, low
    low, high = widen_degenerate_range(low, high)

    def preference(candidate):
        _step, ticks, _exponent = candidate
        count = len(ticks)
        return (not MIN_TICKS <= count <= MAX_TICKS, abs(count - PREFERRED_TICKS), -count)

    _step, ticks, exponent = min(candidate_tick_sets(low, high), key=preference)
    # The exponent tells the labels how many decimals they need.
    return ticks, exponent


def nice_ticks(low: float, high: float) -> list[float]:
    """1-2-5 ticks whose first is <= low and last is >= high.

    Normally 4-6 ticks; a constant value (low == high) gets a range around
    it.  Raises ValueError for non-finite bounds.
    """
    ticks, _exponent = choose_ticks(low, high)
    return ticks


def strip_mantissa_zeros(text: str) -> str:
    """'1.50e-06' -> '1.5e-06', '2.00' -> '2': labels need no padding zeros."""
    mantissa, marker, exponent = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + marker + exponent


def format_tick_labels(ticks: list[float], exponent: int) -> list[str]:
    """Label ticks with just enough digits to tell them apart.

    Both plain decimals and scientific notation are built, and the notation
    with the shorter longest label wins (plain on a tie): 180 stays "180",
    1.5e-06 does not become "0.0000015", and 1000002 does not become
    "1.000002e+06".  One notation per axis so the labels read as a scale.
    """
    plain = [f"{t:.{max(0, -exponent)}f}" for t in ticks]
    largest = max(abs(t) for t in ticks)
    # Mantissa decimals: from the largest tick's magnitude down to the step's.
    sci_decimals = max(0, math.floor(math.log10(largest)) - exponent) if largest else 0
    scientific = [f"{t:.{sci_decimals}e}" for t in ticks]
    plain = [strip_mantissa_zeros(label) for label in plain]
    scientific = [strip_mantissa_zeros(label) for label in scientific]
    longest = lambda labels: max(len(label) for label in labels)
    labels = scientific if longest(scientific) < longest(plain) else plain
    # A tick at zero reads "0" whatever notation or sign float noise gave it.
    return ["0" if t == 0.0 else label for t, label in zip(ticks, labels)]


# --------------------------------------------------------------------------
# Data extraction
# --------------------------------------------------------------------------

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


# --------------------------------------------------------------------------
# SVG scatter plot
# --------------------------------------------------------------------------

def linear_map(domain_low, domain_high, range_low, range_high):
    """Return value -> coordinate, mapping the domain linearly onto the range."""
    scale = (range_high - range_low) / (domain_high - domain_low)
    return lambda value: range_low + (value - domain_low) * scale


def plot_area():
    """Left, right, top, bottom of the plot area inside the SVG."""
    return (MARGIN_LEFT, PLOT_WIDTH - MARGIN_RIGHT,
            MARGIN_TOP, PLOT_HEIGHT - MARGIN_BOTTOM)


def svg_open(label: str) -> str:
    # width/height let the page lay out before CSS; viewBox lets CSS scale it.
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" '
            f'width="{PLOT_WIDTH}" height="{PLOT_HEIGHT}" '
            f'viewBox="0 0 {PLOT_WIDTH} {PLOT_HEIGHT}" role="img" '
            f'aria-label="{escape(label)}"><title>{escape(label)}</title>')


def axis_titles_svg(x_title: str, y_title: str) -> list[str]:
    left, right, top, bottom = plot_area()
    x_mid = svg_number((left + right) / 2)
    y_mid = svg_number((top + bottom) / 2)
    x_base = svg_number(PLOT_HEIGHT - 8)
    return [
        f'<text class="axis-title" x="{x_mid}" y="{x_base}" '
        f'text-anchor="middle">{escape(x_title)}</text>',
        # Rotate about the anchor point so the y title runs up the left edge.
        f'<text class="axis-title" x="14" y="{y_mid}" text-anchor="middle" '
        f'transform="rotate(-90 14 {y_mid})">{escape(y_title)}</text>',
    ]


def x_axis_svg(ticks, labels, to_x) -> list[str]:
    left, right, top, bottom = plot_area()
    parts = [f'<line class="axis" x1="{svg_number(left)}" y1="{svg_number(bottom)}" '
             f'x2="{svg_number(right)}" y2="{svg_number(bottom)}"/>']
    for tick, label in zip(ticks, labels):
        x = svg_number(to_x(tick))
        parts.append(f'<line class="tick" x1="{x}" y1="{svg_number(bottom)}" '
                     f'x2="{x}" y2="{svg_number(bottom + TICK_LENGTH)}"/>')
        parts.append(f'<text class="tick-label" x="{x}" '
                     f'y="{svg_number(bottom + TICK_LENGTH + 12)}" '
                     f'text-anchor="middle">{escape(label)}</text>')
    return parts


def y_axis_svg(ticks, labels, to_y) -> list[str]:
    left, right, top, bottom = plot_area()
    parts = [f'<line class="axis" x1="{svg_number(left)}" y1="{svg_number(top)}" '
             f'x2="{svg_number(left)}" y2="{svg_number(bottom)}"/>']
    for tick, label in zip(ticks, labels):
        y = svg_number(to_y(tick))
        parts.append(f'<line class="grid" x1="{svg_number(left)}" y1="{y}" '
                     f'x2="{svg_number(right)}" y2="{y}"/>')
        parts.append(f'<line class="tick" x1="{svg_number(left - TICK_LENGTH)}" y1="{y}" '
                     f'x2="{svg_number(left)}" y2="{y}"/>')
        # +4 centres a ~10px label vertically on its tick.
        parts.append(f'<text class="tick-label" x="{svg_number(left - TICK_LENGTH - 3)}" '
                     f'y="{svg_number(to_y(tick) + 4)}" text-anchor="end">'
                     f'{escape(label)}</text>')
    return parts


def empty_plot_svg(x_title: str, y_title: str, message: str) -> str:
    """A framed placeholder, so the grid keeps its shape when nothing plots."""
    left, right, top, bottom = plot_area()
    parts = [svg_open(f"{y_title} vs {x_title}: {message}")]
    parts.append(f'<rect class="frame" x="{svg_number(left)}" y="{svg_number(top)}" '
                 f'width="{svg_number(right - left)}" height="{svg_number(bottom - top)}"/>')
    parts.append(f'<text class="empty" x="{svg_number((left + right) / 2)}" '
                 f'y="{svg_number((top + bottom) / 2)}" text-anchor="middle">'
                 f'{escape(message)}</text>')
    parts.extend(axis_titles_svg(x_title, y_title))
    parts.append("</svg>")
    return "".join(parts)


def point_tooltip(run, x_title, x, y_title, y) -> str:
    return f"run {run}: {x_title} = {table_number(x)}, {y_title} = {table_number(y)}"


def scatter_svg(xs, ys, runs, x_title, y_title, join_points: bool) -> str:
    """One scatter plot; xs/ys hold only the points to draw (all finite).

    With join_points the points are also connected in x order, so a 1-D sweep
    reads as a curve.
    """
    if len(xs) == 0:
        return empty_plot_svg(x_title, y_title, "no finished run")

    x_ticks, x_exponent = choose_ticks(float(np.min(xs)), float(np.max(xs)))
    y_ticks, y_exponent = choose_ticks(float(np.min(ys)), float(np.max(ys)))
    left, right, top, bottom = plot_area()
    # The axes span the outer ticks, so every tick sits on the axis and every
    # point inside it; y grows upwards, hence bottom -> top.
    to_x = linear_map(x_ticks[0], x_ticks[-1], left, right)
    to_y = linear_map(y_ticks[0], y_ticks[-1], bottom, top)

    parts = [svg_open(f"{y_title} vs {x_title}")]
    parts.extend(y_axis_svg(y_ticks, format_tick_labels(y_ticks, y_exponent), to_y))
    parts.extend(x_axis_svg(x_ticks, format_tick_labels(x_ticks, x_exponent), to_x))
    parts.extend(axis_titles_svg(x_title, y_title))

    # A stable sort keeps runs with equal x in frame order: deterministic bytes.
    order = np.argsort(xs, kind="mergesort")
    if join_points and len(xs) > 1:
        path = " ".join(f"{svg_number(to_x(xs[i]))},{svg_number(to_y(ys[i]))}" for i in order)
        parts.append(f'<polyline class="curve" points="{path}"/>')
    for i in order:
        tooltip = point_tooltip(runs[i], x_title, xs[i], y_title, ys[i])
        parts.append(f'<circle class="pt" cx="{svg_number(to_x(xs[i]))}" '
                     f'cy="{svg_number(to_y(ys[i]))}" r="{POINT_RADIUS}">'
                     f'<title>{escape(tooltip)}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def plottable_points(x, y, finished):
    """Mask of runs to draw: finished, with a finite parameter and output.

    A run that did not finish is left out even if it reported a number,
    since a partial result would sit among real ones looking valid.
    """
    return finished & np.isfinite(x) & np.isfinite(y)


def plot_grid_html(frame, parameters, outputs, units) -> str:
    """One row of plots per output, one column per parameter."""
    finished = np.array([s == FINISHED for s in text_column(frame, "status")], dtype=bool)
    runs = text_column(frame, "run")
    join_points = len(parameters) == 1
    cells = []
    for output in outputs:
        y_all = numeric_column(frame, output)
        for parameter in parameters:
            x_all = numeric_column(frame, parameter)
            keep = plottable_points(x_all, y_all, finished)
            kept_runs = [run for run, k in zip(runs, keep) if k]
            svg = scatter_svg(x_all[keep], y_all[keep], kept_runs,
                              axis_title(parameter, units), axis_title(output, units),
                              join_points)
            cells.append(f'<figure class="cell">{svg}</figure>')
    # The column count is inline so the grid matches the parameter count.
    columns = max(1, len(parameters))
    return (f'<section class="plots" style="grid-template-columns: '
            f'repeat({columns}, minmax(0, {PLOT_WIDTH}px))">' + "".join(cells) + "</section>")


# --------------------------------------------------------------------------
# Header and run table
# --------------------------------------------------------------------------

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


def header_html(title: str, notes, statuses: list[str]) -> str:
    parts = [f"<header><h1>{escape(title)}</h1>"]
    if notes:
        parts.append('<ul class="notes">')
        parts.extend(f"<li>{escape(note)}</li>" for note in notes)
        parts.append("</ul>")
    parts.append(f'<p class="counts">{escape(run_counts_line(statuses))}</p></header>')
    return "".join(parts)


def run_table_html(frame, parameters, outputs, units) -> str:
    """Every run, in frame order; unfinished rows carry class="failed"."""
    numeric_names = list(parameters) + list(outputs) + ["wall_time_s"]
    numeric = {name: numeric_column(frame, name) for name in numeric_names}
    runs = text_column(frame, "run")
    statuses = text_column(frame, "status")
    errors = text_column(frame, "error")

    header_cells = (["run", "status"] + [axis_title(n, units) for n in parameters]
                    + [axis_title(n, units) for n in outputs] + ["wall time [s]", "error"])
    parts = ['<table class="runs"><thead><tr>']
    parts.extend(f'<th scope="col">{escape(cell)}</th>' for cell in header_cells)
    parts.append("</tr></thead><tbody>")
    for row in range(len(frame)):
        failed = statuses[row] != FINISHED
        parts.append(f'<tr class="failed" data-status="{escape(statuses[row])}">' if failed
                     else f'<tr data-status="{escape(statuses[row])}">')
        parts.append(f'<td class="num">{escape(runs[row])}</td>')
        parts.append(f"<td>{escape(statuses[row])}</td>")
        for name in numeric_names:
            value = numeric[name][row]
            css = "num nan" if math.isnan(value) else "num"
            parts.append(f'<td class="{css}">{escape(table_number(value))}</td>')
        parts.append(f'<td class="error">{escape(errors[row])}</td></tr>')
    parts.append("</tbody></table>")
    return "".join(parts)


PAGE_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5rem; color: #222; }
h1 { font-size: 1.4rem; margin: 0 0 .4rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
.notes { margin: 0; padding-left: 1.2rem; color: #555; font-size: .9rem; }
.counts { font-weight: 600; }
.plots { display: grid; gap: .5rem; }
.cell { margin: 0; }
.plot { width: 100%; height: auto; background: #fff; }
.plot .axis, .plot .tick { stroke: #333; stroke-width: 1; }
.plot .grid { stroke: #e4e4e4; stroke-width: 1; }
.plot .frame { fill: #fafafa; stroke: #ccc; }
.plot .tick-label { font-size: 10px; fill: #333; }
.plot .axis-title { font-size: 11px; fill: #111; }
.plot .empty { font-size: 12px; fill: #a33; }
.plot .curve { fill: none; stroke: #4a7fb5; stroke-width: 1.5; }
.plot .pt { fill: #1f5f99; fill-opacity: .8; }
.table-wrap { overflow-x: auto; }
.runs { border-collapse: collapse; font-size: .85rem; }
.runs th, .runs td { border: 1px solid #ddd; padding: .2rem .5rem; }
.runs th { background: #f0f0f0; position: sticky; top: 0; }
.runs td.num { text-align: right; font-variant-numeric: tabular-nums; }
.runs td.nan { color: #a33; }
.runs tr.failed { background: #fde8e8; }
.runs td.error { font-family: ui-monospace, monospace; white-space: pre-wrap; }
"""


# --------------------------------------------------------------------------
# Page
# --------------------------------------------------------------------------

def sweep_page(frame, parameters, outputs, *, title, units=None, notes=None) -> str:
    """Return one self-contained HTML5 page summarising a parameter study.

    frame: one row per run with the `parameters` and `outputs` columns plus
    run, status, error and wall_time_s.  Outputs may be NaN for failed runs.
    units maps column names to unit strings for axis labels; notes are short
    lines shown under the title.  Every user-provided string is escaped.
    """
    parameters = list(parameters)
    outputs = list(outputs)
    units = dict(units or {})
    notes = list(notes or [])
    check_columns(frame, parameters, outputs)
    statuses = text_column(frame, "status")

    body = [
        header_html(title, notes, statuses),
        "<h2>Outputs against parameters</h2>",
        plot_grid_html(frame, parameters, outputs, units),
        "<h2>Runs</h2>",
        # The wrapper scrolls sideways on its own, so a wide table does not
        # widen the whole page.
        '<div class="table-wrap">' + run_table_html(frame, parameters, outputs, units) + "</div>",
    ]
    return ("<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{PAGE_CSS}</style></head>\n"
            "<body>" + "\n".join(body) + "</body></html>\n")
