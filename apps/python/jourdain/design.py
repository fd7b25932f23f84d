"""Design studies: which parameter values reproduce a measurement (:func:`fit`), and which
give the best design within limits (:func:`optimize`).

Both run their model on the study layer (study.py): the runs an optimiser asks for at one
step (a Jacobian's perturbed points, a generation of differential evolution or NSGA-II)
go out together and run in parallel, on a local cluster or any dask scheduler, with the
sweep's survival of lost workers. Every evaluation is a row of ``rows.jsonl`` in the
study's folder, written as it completes; the optimisers are deterministic for a given
seed, so a study started again with the same folder asks for the same points, finds the
rows of those already run, runs only the others, and ends with the result an
uninterrupted study gives.

The optimisers are SciPy's and Optuna's, not written here: least squares with bounds
(trust-region reflective), Nelder-Mead, Powell, differential evolution, and Optuna's
NSGA-II for two or more objectives.

A parameter is given with its bounds, in a unit of its own: ``Bounds("valve.max_opening",
5, 20, "mm")`` or, as the command line writes it, ``"valve.max_opening=5:20 mm"``
(``LOW:HIGH:START`` gives the start; else the netlist's value when it lies within the
bounds, else the middle). The optimisers work on each parameter scaled to [0, 1]
between its bounds.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from . import _jourdain
from . import study
from .model import InputError, Library, Result

__all__ = ["Bounds", "Constraint", "FitResult", "OptimizeResult", "fit", "optimize", "parse_bounds",
           "parse_constraint"]

METHODS = ("nelder-mead", "powell", "differential-evolution", "nsga2")
CONFIDENCE = 0.95
# A parameter whose relative standard error exceeds this, or whose column of the scaled
# Jacobian is this close to a combination of the others (smallest singular value over the
# largest), is said not identifiable from the data.
UNIDENTIFIABLE_RELATIVE_ERROR = 1.0
UNIDENTIFIABLE_CONDITION = 1e-6
# An estimate this close to a bound (a fraction of the range) is said to be at it.
AT_BOUND = 1e-6


# ---------------------------------------------------------------------------------------
# What a study varies and what it asks of each run


@dataclass(frozen=True)
class Bounds:
    """A parameter a study varies between ``low`` and ``high`` (in ``unit``; a bare number
    is SI), from ``start`` (None: the netlist's value if within the bounds, else the middle)."""
    name: str
    low: float
    high: float
    unit: str = ""
    start: float | None = None

    def __post_init__(self):
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise InputError(f"parameter {self.name}: bounds {self.low}:{self.high} need LOW < HIGH, both finite")
        if self.start is not None and not self.low <= self.start <= self.high:
            raise InputError(f"parameter {self.name}: start {self.start} is outside {self.low}:{self.high}")

    def value(self, x: float):
        """The value a run is given for ``x`` (in the parameter's unit)."""
        return study._with_unit(float(x), self.unit)

    def scaled(self, x: float) -> float:
        return (x - self.low) / (self.high - self.low)

    def unscaled(self, u: float) -> float:
        return self.low + float(u) * (self.high - self.low)


def parse_bounds(text: str) -> Bounds:
    """``NAME=LOW:HIGH[:START] [UNIT]``, as ``--param`` writes it."""
    name, eq, rest = text.partition("=")
    head, _, unit = rest.strip().partition(" ")
    parts = head.split(":")
    if not eq or not name.strip() or len(parts) not in (2, 3):
        raise InputError(f"--param '{text}': expected NAME=LOW:HIGH[:START] [UNIT]")
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise InputError(f"--param '{text}': LOW, HIGH and START are numbers (the unit follows them)") from None
    return Bounds(name.strip(), numbers[0], numbers[1], unit.strip(), numbers[2] if len(parts) == 3 else None)


@dataclass(frozen=True)
class Constraint:
    """``output`` (a sweep output spec, ``"supply.pressure:max"``) kept below (``op`` "<")
    or above (">") ``limit`` (SI)."""
    output: str
    op: str
    limit: float
    text: str = ""

    def violation(self, value: float) -> float:
        """How far ``value`` is past the limit, relative to it (0: satisfied)."""
        if not math.isfinite(value):
            return math.inf
        past = value - self.limit if self.op == "<" else self.limit - value
        return max(0.0, past) / max(abs(self.limit), 1e-300)


def parse_constraint(text: str, units: Mapping[str, str]) -> Constraint:
    """``SPEC<LIMIT [UNIT]`` or ``SPEC>LIMIT [UNIT]`` (``<=``, ``>=`` alike). ``units``: the
    SI unit of each output the limit may be given in another unit of."""
    for op in ("<=", ">=", "<", ">"):
        spec, found, limit = text.partition(op)
        if found:
            break
    else:
        raise InputError(f"--constraint '{text}': expected SPEC<LIMIT or SPEC>LIMIT (with a unit if wanted)")
    spec, limit = spec.strip(), limit.strip()
    unit = units.get(spec, "")
    try:
        value = float(_jourdain.to_si(limit, unit)) if unit else float(limit)
    except (RuntimeError, ValueError) as exc:
        raise InputError(f"--constraint '{text}': {exc}") from None
    return Constraint(spec, op[0], value, text)


def output_unit(spec: str, variables: Mapping[str, str]) -> str:
    """The SI unit of an output spec's figure, where a unit applies ("" otherwise)."""
    variable, _, stat = spec.rpartition(":") if ":" in spec else (spec, "", "final")
    unit = variables.get(variable)
    if unit is None or stat in ("overshoot", "integral", "integral_square"):
        return ""
    return "s" if stat in ("tmin", "tmax", "settling") else unit


class _Sampled:
    """An output of the runs: each fitted variable at the measurement's times (linear
    interpolation between the recorded rows; the netlist's output interval, or the
    study's solver settings, says how close they are)."""

    def __init__(self, times: Mapping[str, np.ndarray]):
        self.times = {name: np.asarray(t, dtype=float) for name, t in times.items()}
        self.__name__ = "sampled"

    def __call__(self, result: Result) -> dict:
        t = result.time
        # Event rows repeat a time: the value after the event is kept.
        keep = np.append(np.diff(t) > 0, True)
        return {f"signal:{name}": np.interp(times, t[keep], result[name][keep]).tolist()
                for name, times in self.times.items()}


# ---------------------------------------------------------------------------------------
# Evaluations: the runs a study asks for, in parallel, resumable


class _KeptRows(study._RowLog):
    """The study layer's row log, also holding every row (a design study's evaluations
    are few, and the optimiser needs them back)."""

    def __init__(self, folder: Path | None, digest: str, description: dict):
        self.kept: dict[int, dict] = {}
        super().__init__(folder, digest, description)

    def _read_previous_rows(self) -> None:
        super()._read_previous_rows()  # drops a torn last line
        with open(self.path, encoding="utf-8") as lines:
            for line in lines:
                row = json.loads(line)
                self.kept[int(row["run"])] = row

    def extend(self, rows: Sequence[dict]) -> None:
        super().extend(rows)
        for row in rows:
            self.kept[int(row["run"])] = row


class _Evaluations:
    """Runs of one netlist at the points an optimiser asks for: each call's points run
    together, in parallel, and come back as rows in their order. One cluster serves the
    whole study."""

    def __init__(self, text: str, path: str, outputs: Sequence, solver: Mapping, t_end: float | None,
                 plugins: tuple[str, ...], allow_plugins: bool, folder: Path | None, description: dict,
                 scheduler: Any, workers: int | None, quiet: bool, initial_names: frozenset[str],
                 progress: Callable[[int], None] | None):
        key = json.dumps({"netlist": text, "file": path, "solver": dict(solver), "t_end": t_end,
                          "study": description}, sort_keys=True, default=str)
        self.digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        self.log = _KeptRows(folder, self.digest, description)
        self.task = functools.partial(study.run_batch, netlist_text=text, netlist_file=path, plugins=plugins,
                                      allow_plugins=allow_plugins, outputs=list(outputs), solver=dict(solver),
                                      t_end=t_end, initial_names=initial_names)
        self.scheduler, self.workers, self.quiet = scheduler, workers, quiet
        self.progress = progress
        self.count = 0          # evaluations asked for so far
        self._run_at: dict[int, int] = {}  # a point's values (fingerprint) -> the evaluation that ran it
        self._plan = study._Placement()    # the run times seen: they size the next batches' tasks
        self.ran = 0            # of which run by this start (not found in the folder)
        self._client = None
        self._owned = False
        self._cluster = None
        self._nannies = None

    def __call__(self, points: Sequence[Mapping[str, Any]]) -> list[dict]:
        numbered = [(self.count + k, dict(values)) for k, values in enumerate(points)]
        self.count += len(numbered)
        todo, again = [], []
        for index, values in numbered:
            point = study._fingerprint(values)
            if self.log.was_done(index, values):
                self._run_at.setdefault(point, self.log.kept[index].get("same_as", index))
                continue
            # A point the study has run already (optimisers propose some twice: NSGA-II
            # keeps parents, a simplex may return) is not run again: its row is copied
            # (once the batch has run: the first may be in it).
            earlier = self._run_at.get(point)
            if earlier is not None:
                again.append((index, earlier))
            else:
                self._run_at[point] = index
                todo.append((index, values))
        if todo:
            client = self._connect()
            study._dispatch(client, self.task, iter(todo), self.digest, self.log,
                            lambda: self.progress(self.log.count) if self.progress else None, cluster=self._cluster,
                            plan=self._plan)
            self.ran += len(todo)
        if again:
            # (No run: no wall time, no worker.)
            self.log.extend([{**self.log.kept[earlier], "run": index, "same_as": earlier, "wall_time_s": 0.0,
                              "worker": ""} for index, earlier in again])
            if self.progress:
                self.progress(self.log.count)
        return [self.log.kept[index] for index, _ in numbered]

    def _connect(self):
        if self._client is None:
            self._client, self._owned = study._connect(self.scheduler, self.workers, self.quiet)
            self._cluster = getattr(self._client, "cluster", None) if self._owned else None
            if self._cluster is not None:
                self._nannies = study._keeping_nannies()
                self._nannies.__enter__()
        return self._client

    def close(self) -> None:
        if self._nannies is not None:
            self._nannies.__exit__(None, None, None)
            self._nannies = None
        if self._client is not None and self._owned:
            study._close(self._client)
        self._client = None

    def rows(self) -> list[dict]:
        return [self.log.kept[index] for index in range(self.count)]


@dataclass
class _Setup:
    """What both kinds of study check and hold before they start."""
    text: str
    path: str
    model: Any
    bounds: list[Bounds]
    starts: np.ndarray  # scaled to [0, 1]
    solver: dict
    plugins: tuple[str, ...]
    allow_plugins: bool


def _set_up(netlist, parameters, solver, plugins, allow_plugins, file) -> _Setup:
    plugins = tuple(os.path.abspath(p) for p in plugins)
    text, path = study._netlist_source(netlist, file)
    model = Library(plugins).load(text, file=path, allow_plugins=allow_plugins)
    bounds = [parse_bounds(p) if isinstance(p, str) else p for p in parameters]
    if not bounds:
        raise InputError("a design study needs at least one parameter to vary")
    names = [b.name for b in bounds]
    if len(set(names)) != len(names):
        raise InputError(f"{path}: a parameter is given twice among {', '.join(names)}")
    known = model.parameters
    starts = []
    for b in bounds:
        if b.name not in known:
            raise InputError(f"{path}: no numeric parameter named '{b.name}'; parameters: {', '.join(sorted(known))}")
        start = b.start
        if start is None:
            # The netlist's value, in the bounds' unit, when it lies within them.
            default = known[b.name].default
            try:
                here = float(_jourdain.from_si(default, b.unit)) if b.unit else default
            except RuntimeError as exc:
                raise InputError(f"parameter {b.name}: unit '{b.unit}': {exc}") from None
            start = here if b.low <= here <= b.high else 0.5 * (b.low + b.high)
        starts.append(b.scaled(start))
    solver = dict(solver or {})
    study._check_solver(model, solver, None, path)
    return _Setup(text, path, model, bounds, np.array(starts), solver, plugins, allow_plugins)


def _unit_of(setup: _Setup, bounds: Bounds) -> str:
    """The unit a parameter's values are in: its own, else (a bare number is SI) the model's."""
    return bounds.unit or setup.model.parameters[bounds.name].unit


def _point(bounds: Sequence[Bounds], u: Sequence[float]) -> dict:
    return {b.name: b.value(b.unscaled(min(max(float(x), 0.0), 1.0))) for b, x in zip(bounds, u)}


def _number(value: Any) -> float:
    number, _ = study.split_quantity(value)
    return float(number)


# ---------------------------------------------------------------------------------------
# Estimation


@dataclass
class FitResult:
    """What :func:`fit` found: estimates in each parameter's unit, their standard errors
    and confidence intervals, the correlation of the estimates, the residuals, and
    warnings (a parameter the data cannot identify)."""
    estimates: dict[str, float]
    std_errors: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    correlation: np.ndarray
    residual_std: float
    dof: int
    cost: float
    warnings: list[str]
    signals: list[dict]
    evaluations: list[dict]
    summary: dict = field(repr=False)
    converged: bool = True
    message: str = ""


def read_measurement(data) -> tuple[np.ndarray, dict[str, np.ndarray], dict[str, str]]:
    """The measurement: a CSV file (as results.csv writes it: ``time [s]``, then columns
    ``name [unit]``) or a pandas DataFrame. Returns the times, each signal, and each
    signal's unit as the header gives it."""
    import pandas as pd
    frame = data if isinstance(data, pd.DataFrame) else pd.read_csv(data)
    names, units = {}, {}
    for column in frame.columns:
        text = str(column).strip()
        name, unit = text, ""
        if text.endswith("]") and " [" in text:
            name, _, unit = text[:-1].rpartition(" [")
        names[column] = name
        units[name] = unit
    time_columns = [c for c in frame.columns if names[c] in ("time", "t")]
    if not time_columns:
        raise InputError(f"{data if isinstance(data, (str, os.PathLike)) else 'measurement'}: no 'time' column "
                         f"(columns: {', '.join(map(str, frame.columns))})")
    t = pd.to_numeric(frame[time_columns[0]], errors="coerce").to_numpy(dtype=float)
    signals = {}
    for column in frame.columns:
        if column in time_columns:
            continue
        values = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float)
        signals[names[column]] = values
    return t, signals, {n: units[n] for n in signals}


def fit(netlist: str | os.PathLike | Mapping, data, parameters: Sequence[Bounds | str], *,
        signals: Sequence[str] | None = None, weights: Mapping[str, float] | None = None,
        solver: Mapping[str, Any] | None = None, output_dir: str | os.PathLike | None = None,
        scheduler: Any = None, workers: int | None = None, max_evaluations: int = 400,
        plugins: Sequence[str] = (), allow_plugins: bool = False, file: str | os.PathLike | None = None,
        quiet: bool = False, progress: Callable[[int], None] | None = None) -> FitResult:
    """Estimates ``parameters`` so that the model's recorded variables reproduce ``data``
    (a CSV file or DataFrame: a ``time`` column in seconds and one column per measured
    variable, named as the model names it, ``load.x`` (SI) or with its unit as results.csv
    writes it, ``load.x [m]`` or ``load.x [mm]``; NaN cells are left out).

    Nonlinear least squares with bounds (SciPy's ``least_squares``, trust-region
    reflective) on the residuals ``w_k (model_k(t_i) - measured_k(t_i))``. The weight of a
    signal is ``weights[name]`` (1/its noise's standard deviation, ideally), else 1 over
    the spread (standard deviation) of its measured values, so that signals in different
    units count alike. The Jacobian of the residuals is made by forward differences:
    the perturbed runs (one a parameter) run together on the study layer, with a step of
    sqrt(rtol) of the parameter's range (the runs' own accuracy sets how small a step
    still means something).

    At the optimum: the covariance of the estimates is s^2 (J^T J)^-1, with s^2 the
    residual variance (sum of squares over the degrees of freedom); the intervals are
    Student's t at CONFIDENCE. A parameter the data barely depend on, or whose effect
    another parameter's mimics, is said not identifiable (``warnings``).
    """
    from scipy import optimize as scipy_optimize
    from scipy import stats

    setup = _set_up(netlist, parameters, solver, plugins, allow_plugins, file)
    t, measured, measured_units = read_measurement(data)
    wanted = list(signals) if signals is not None else list(measured)
    variables = setup.model.variables
    for name in wanted:
        if name not in measured:
            raise InputError(f"measurement: no column '{name}' (columns: {', '.join(measured)})")
        if name not in variables:
            raise InputError(f"{setup.path}: the measurement's column '{name}' is no variable of the model")
        unit = measured_units.get(name)
        if unit and unit != variables[name]:
            # Another unit of the same dimension: to SI (affine units too: degC).
            try:
                zero = float(_jourdain.to_si(f"0 {unit}", variables[name]))
                gain = float(_jourdain.to_si(f"1 {unit}", variables[name])) - zero
            except RuntimeError as exc:
                raise InputError(f"measurement: column '{name} [{unit}]': {exc} (the model's unit is "
                                 f"'{variables[name]}')") from None
            measured[name] = zero + gain * measured[name]
    if not wanted:
        raise InputError("measurement: no signal to fit")
    picked = {name: np.isfinite(measured[name]) & np.isfinite(t) for name in wanted}
    times = {name: t[picked[name]] for name in wanted}
    values = {name: measured[name][picked[name]] for name in wanted}
    scale = {}
    for name in wanted:
        if weights and name in weights:
            scale[name] = float(weights[name])
        else:
            spread = float(np.std(values[name]))
            scale[name] = 1.0 / spread if spread > 0 else 1.0
    m = sum(len(v) for v in values.values())
    n = len(setup.bounds)
    if m <= n:
        raise InputError(f"measurement: {m} points for {n} parameters; a fit needs more points than parameters")
    rtol = float(setup.solver.get("rtol", setup.model.solver.get("rtol", 1e-6)))
    step = math.sqrt(max(rtol, np.finfo(float).eps))
    measurement_digest = hashlib.sha256(json.dumps({k: [times[k].tolist(), values[k].tolist()] for k in wanted})
                                        .encode()).hexdigest()[:16]
    description = {"kind": "fit", "netlist": setup.path, "parameters": [b.__dict__ for b in setup.bounds],
                   "signals": wanted, "weights": scale, "measurement": measurement_digest,
                   "max_evaluations": max_evaluations}
    folder = Path(output_dir) if output_dir is not None else None
    if folder is not None:
        study._check_output_folder(output_dir)
    evaluations = _Evaluations(setup.text, setup.path, [_Sampled(times)], setup.solver, None, setup.plugins,
                               setup.allow_plugins,
                               folder, description, scheduler, workers, quiet, frozenset(setup.model.states),
                               progress)
    failed_residual = 1e3  # in weighted units: far worse than any fit, finite for the optimiser

    def residuals_of(row: dict) -> np.ndarray:
        if row["status"] != "finished":
            return np.full(m, failed_residual)
        return np.concatenate([scale[k] * (np.asarray(row[f"signal:{k}"], dtype=float) - values[k]) for k in wanted])

    # By point (scaled, as bytes): its row and residuals, and the Jacobians made there
    # (scipy asks for the residuals and the Jacobian apart; the fit's statistics ask again).
    cache: dict[bytes, tuple[dict, np.ndarray]] = {}
    jacobians: dict[bytes, np.ndarray] = {}

    def residuals(u: np.ndarray) -> np.ndarray:
        key = np.asarray(u, dtype=float).tobytes()
        if key not in cache:
            row = evaluations([_point(setup.bounds, u)])[0]
            if not cache and row["status"] != "finished":
                raise InputError(f"{setup.path}: the run at the start values did not finish: {row['error']}")
            cache[key] = row, residuals_of(row)
        return cache[key][1]

    def jacobian(u: np.ndarray) -> np.ndarray:
        u = np.asarray(u, dtype=float)
        if u.tobytes() in jacobians:
            return jacobians[u.tobytes()]
        base = residuals(u)
        # Forward steps, backward where a step would leave the bounds.
        steps = np.array([step if x + step <= 1.0 else -step for x in u])
        points = []
        for j in range(n):
            v = u.copy()
            v[j] += steps[j]
            points.append(v)
        rows = evaluations([_point(setup.bounds, v) for v in points])
        J = np.empty((m, n))
        for j, (v, row) in enumerate(zip(points, rows)):
            r = residuals_of(row)
            cache[v.tobytes()] = row, r
            J[:, j] = (r - base) / steps[j]
        jacobians[u.tobytes()] = J
        return J

    try:
        solution = scipy_optimize.least_squares(residuals, setup.starts, jac=jacobian, bounds=(0.0, 1.0),
                                                method="trf", x_scale=1.0, max_nfev=max_evaluations,
                                                xtol=max(step * 1e-3, 1e-12), ftol=1e-10, gtol=1e-10)
        J_u = jacobian(solution.x)
    finally:
        evaluations.close()

    u = solution.x
    r = residuals(u)
    dof = m - n
    cost = float(r @ r)
    s2 = cost / dof
    widths = np.array([b.high - b.low for b in setup.bounds])
    J = J_u / widths  # d residual / d parameter, in the parameters' units
    warnings = []
    column_norms = np.linalg.norm(J_u, axis=0)
    # A parameter the signals do not depend on: any value within its bounds fits as well.
    flat = column_norms <= 1e-12 * max(column_norms.max(), 1e-300)
    singular = np.linalg.svd(J_u / np.where(column_norms > 0, column_norms, 1.0), compute_uv=False)
    covariance = s2 * np.linalg.pinv(J.T @ J)
    std_errors = np.sqrt(np.maximum(np.diag(covariance), 0.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        correlation = covariance / np.outer(std_errors, std_errors)
    correlation = np.where(np.isfinite(correlation), correlation, np.nan)
    t_value = float(stats.t.ppf(0.5 + CONFIDENCE / 2, dof))
    estimates = {b.name: b.unscaled(x) for b, x in zip(setup.bounds, u)}
    names = [b.name for b in setup.bounds]
    for j, b in enumerate(setup.bounds):
        value = estimates[b.name]
        if flat[j]:
            warnings.append(f"{b.name}: not identifiable from this measurement (the fitted signals do not "
                            f"depend on it)")
        elif std_errors[j] > UNIDENTIFIABLE_RELATIVE_ERROR * max(abs(value), 1e-300) or \
                std_errors[j] > (b.high - b.low):
            warnings.append(f"{b.name}: not identifiable from this measurement (standard error "
                            f"{std_errors[j]:.3g} {b.unit} for an estimate of {value:.6g} {b.unit})".replace("  ", " "))
    if singular.size and singular[-1] < UNIDENTIFIABLE_CONDITION * singular[0] and not warnings:
        strongest = np.unravel_index(np.nanargmax(np.abs(correlation - np.eye(n))), correlation.shape)
        warnings.append(f"{names[strongest[0]]} and {names[strongest[1]]}: not identifiable apart from this "
                        f"measurement (correlation {correlation[strongest]:.6f})")
    for j, b in enumerate(setup.bounds):
        if u[j] <= AT_BOUND or u[j] >= 1.0 - AT_BOUND:
            warnings.append(f"{b.name}: the estimate is at its bound ({estimates[b.name]:.6g} {b.unit}); the "
                            f"optimum may lie beyond it".replace("  ", " "))
    std_errors = np.where(flat, np.nan, std_errors)
    intervals = {b.name: (b.low, b.high) if flat[j] else
                 (estimates[b.name] - t_value * std_errors[j], estimates[b.name] + t_value * std_errors[j])
                 for j, b in enumerate(setup.bounds)}
    fitted_row = cache[np.asarray(u, dtype=float).tobytes()][0]
    signals_out = []
    for k in wanted:
        fitted = np.asarray(fitted_row[f"signal:{k}"], dtype=float)
        signals_out.append({"variable": k, "unit": variables[k], "time": times[k].tolist(),
                            "measured": values[k].tolist(), "fitted": fitted.tolist(),
                            "residual": (fitted - values[k]).tolist()})
    rows = evaluations.rows()
    records = []
    for row in rows:
        r_row = residuals_of(row)
        records.append({"index": row["run"], "values": {b.name: _number(row["values"][b.name]) for b in setup.bounds},
                        "cost": float(r_row @ r_row) if row["status"] == "finished" else None,
                        "objectives": [], "constraints": [], "feasible": row["status"] == "finished",
                        "status": row["status"], "error": row["error"], "wall_time_s": row.get("wall_time_s"),
                        "report": None})
    best_index = min((rec for rec in records if rec["cost"] is not None), key=lambda rec: rec["cost"])["index"]
    summary = {
        "kind": "fit", "netlist": setup.path, "method": "trf", "seed": None,
        "parameters": [{"name": b.name, "unit": _unit_of(setup, b), "low": b.low, "high": b.high,
                        "start": b.unscaled(s0)}
                       for b, s0 in zip(setup.bounds, setup.starts)],
        "objectives": [], "constraints": [], "evaluations": records,
        "best": {"index": best_index, "values": estimates, "objectives": [cost]}, "pareto": [],
        "warnings": warnings,
        "fit": {"estimates": estimates, "std_errors": dict(zip(names, std_errors.tolist())),
                "intervals": {k: list(v) for k, v in intervals.items()}, "confidence": CONFIDENCE, "names": names,
                "correlation": correlation.tolist(), "residual_std": math.sqrt(s2), "dof": dof, "cost": cost,
                "weights": scale, "converged": bool(solution.success), "message": str(solution.message),
                "signals": signals_out},
        "evaluations_run": evaluations.ran,
    }
    if folder is not None:
        _write_summary(folder, summary)
        if fitted_row["status"] == "finished":
            _report_run(setup, {b.name: b.value(estimates[b.name]) for b in setup.bounds}, folder / "runs" / "fitted",
                        summary, None)
    return FitResult(estimates, dict(zip(names, std_errors.tolist())), intervals, correlation, math.sqrt(s2), dof, cost,
                     warnings, signals_out, records, summary, bool(solution.success), str(solution.message))


# ---------------------------------------------------------------------------------------
# Optimisation


@dataclass
class OptimizeResult:
    """What :func:`optimize` found: the best point (single objective) or the Pareto front
    (several), and every evaluation."""
    best: dict | None
    pareto: list[dict]
    evaluations: list[dict]
    summary: dict = field(repr=False)
    message: str = ""


@dataclass(frozen=True)
class Objective:
    """An output spec (``"load.x:overshoot"``) or a function of the :class:`Result`,
    minimised (``sense`` "min") or maximised ("max")."""
    output: str | Callable
    sense: str = "min"

    @property
    def name(self) -> str:
        return study._output_name(self.output)


def _objective(spec) -> Objective:
    if isinstance(spec, Objective):
        return spec
    if isinstance(spec, str) and spec.startswith(("max:", "min:")):
        return Objective(spec[4:], spec[:3])
    return Objective(spec)


def optimize(netlist: str | os.PathLike | Mapping, parameters: Sequence[Bounds | str],
             objectives: str | Callable | Objective | Sequence[str | Callable | Objective], *,
             constraints: Sequence[str | Constraint] = (), method: str | None = None, seed: int = 0,
             max_evaluations: int = 400, population: int | None = None, generations: int | None = None,
             solver: Mapping[str, Any] | None = None, t_end: float | None = None,
             output_dir: str | os.PathLike | None = None, scheduler: Any = None, workers: int | None = None,
             plugins: Sequence[str] = (), allow_plugins: bool = False, file: str | os.PathLike | None = None,
             reports: bool = True,
             quiet: bool = False, progress: Callable[[int], None] | None = None) -> OptimizeResult:
    """Finds the parameter values that minimise (or maximise) the objectives within the
    constraints.

    ``objectives``: one or more output specs as the sweep's (``"load.x:overshoot"``,
    ``"supply.pressure:max"``, ``"error.out:integral_square"``, ``"wall_time"``), with
    ``"max:"`` in front to maximise, or functions of the :class:`Result` (picklable: they
    run on the workers). ``constraints``: ``"supply.pressure:max<250 bar"`` (a unit as the
    output's is converted) or :class:`Constraint`.

    ``method``: ``"nelder-mead"`` or ``"powell"`` (SciPy's local, derivative-free methods:
    one evaluation at a time, for small, noisy problems), ``"differential-evolution"``
    (SciPy's, global: a generation of ``population`` points runs in parallel; ``generations``
    counts those after the initial population's), or, for two
    objectives or more, ``"nsga2"`` (Optuna's NSGA-II: a Pareto front). Default: Nelder-Mead
    for one objective, NSGA-II for several. The single-objective methods see a constraint
    as a penalty: a point outside the limits is worse than every point within them seen
    so far, by its relative violation, so that they keep to the feasible points once they
    have one (deterministic: a resumed study takes the same path). ``seed`` fixes the
    random methods' draws, so that a study repeats.

    With ``output_dir``: ``rows.jsonl`` (every evaluation as it completes; the same call
    resumes an interrupted study), ``summary.json``, ``study.html`` and, when ``reports``,
    the run of the best point (of each Pareto point) with its report.html under ``runs/``.
    """
    from scipy import optimize as scipy_optimize

    setup = _set_up(netlist, parameters, solver, plugins, allow_plugins, file)
    goals = [_objective(o) for o in ([objectives] if isinstance(objectives, (str, Objective)) or callable(objectives)
                                     else list(objectives))]
    if not goals:
        raise InputError("optimize needs an objective")
    for goal in goals:
        if goal.sense not in ("min", "max"):
            raise InputError(f"objective {goal.name}: sense '{goal.sense}' (min or max)")
    method = method or ("nelder-mead" if len(goals) == 1 else "nsga2")
    if method not in METHODS:
        raise InputError(f"optimize: no method '{method}' (one of {', '.join(METHODS)})")
    if len(goals) > 1 and method != "nsga2":
        raise InputError(f"optimize: {len(goals)} objectives need method nsga2 (a Pareto front), not {method}")
    variables = setup.model.variables
    limits = [c if isinstance(c, Constraint) else
              parse_constraint(c, {c.partition("<")[0].partition(">")[0].strip():
                                   output_unit(c.partition("<")[0].partition(">")[0].strip(), variables)})
              for c in constraints]
    outputs = [g.output for g in goals] + [c.output for c in limits]
    study._check_outputs(setup.model, [o for o in outputs if isinstance(o, str)], setup.path)
    study._check_solver(setup.model, setup.solver, t_end, setup.path)
    n = len(setup.bounds)
    population = int(population or max(4 * n, 8 if method != "nsga2" else 16))
    description = {"kind": "optimize", "netlist": setup.path, "method": method, "seed": seed,
                   "parameters": [b.__dict__ for b in setup.bounds],
                   "objectives": [[g.name, g.sense] for g in goals], "constraints": [c.__dict__ for c in limits],
                   "max_evaluations": max_evaluations, "population": population, "generations": generations}
    folder = Path(output_dir) if output_dir is not None else None
    if folder is not None:
        study._check_output_folder(output_dir)
    evaluations = _Evaluations(setup.text, setup.path, outputs, setup.solver, t_end, setup.plugins, setup.allow_plugins,
                               folder,
                               description, scheduler, workers, quiet, frozenset(setup.model.states), progress)

    def figures(row: dict) -> tuple[list[float], list[float], float]:
        """The objectives (as minimised), the constraints' figures and the total violation."""
        finished = row["status"] == "finished"
        objs = [float(row[g.name]) if finished else math.nan for g in goals]
        objs = [-v if g.sense == "max" else v for v, g in zip(objs, goals)]
        cons = [float(row[c.output]) if finished else math.nan for c in limits]
        violation = sum(c.violation(v) for c, v in zip(limits, cons)) if finished else math.inf
        if not all(math.isfinite(v) for v in objs):
            violation = math.inf
        return objs, cons, violation

    worst_feasible = [-math.inf]

    def penalised(row: dict) -> float:
        objs, _, violation = figures(row)
        if violation == 0:
            worst_feasible[0] = max(worst_feasible[0], objs[0])
            return objs[0]
        base = worst_feasible[0] if math.isfinite(worst_feasible[0]) else 0.0
        return base + abs(base) + 1.0 + min(violation, 1e30)

    def batch(us: Sequence[np.ndarray]) -> list[float]:
        return [penalised(row) for row in evaluations([_point(setup.bounds, u) for u in us])]

    message = ""
    try:
        if method in ("nelder-mead", "powell"):
            solution = scipy_optimize.minimize(lambda u: batch([u])[0], setup.starts, method=
                                               "Nelder-Mead" if method == "nelder-mead" else "Powell",
                                               bounds=[(0.0, 1.0)] * n,
                                               options={"maxfev": max_evaluations, "xatol": 1e-6, "fatol": 1e-12}
                                               if method == "nelder-mead" else
                                               {"maxfev": max_evaluations, "xtol": 1e-6, "ftol": 1e-12})
            message = str(solution.message)
        elif method == "differential-evolution":
            # Vectorised: scipy hands over a whole generation (deferred updating), which
            # runs as one batch.
            size = max(1, math.ceil(population / n))  # scipy's popsize is per parameter
            solution = scipy_optimize.differential_evolution(
                lambda us: np.array(batch([us[:, k] for k in range(us.shape[1])])), [(0.0, 1.0)] * n,
                popsize=size, maxiter=generations or max(1, max_evaluations // (size * n) - 1), seed=seed,
                polish=False, vectorized=True, updating="deferred", tol=1e-8, init="latinhypercube")
            message = str(solution.message)
        else:
            message = _nsga2(evaluations, setup.bounds, goals, limits, figures, seed, population,
                             generations or max(1, max_evaluations // population))
    finally:
        evaluations.close()

    rows = evaluations.rows()
    records = []
    for row in rows:
        objs, cons, violation = figures(row)
        records.append({"index": row["run"], "values": {b.name: _number(row["values"][b.name]) for b in setup.bounds},
                        "objectives": [(-v if g.sense == "max" else v) if math.isfinite(v) else None
                                       for v, g in zip(objs, goals)],
                        "constraints": [v if math.isfinite(v) else None for v in cons],
                        "feasible": violation == 0, "status": row["status"], "error": row["error"],
                        "wall_time_s": row.get("wall_time_s"), "report": None, "_minimised": objs})
    feasible = [rec for rec in records if rec["feasible"]]
    best, pareto = None, []
    if feasible and len(goals) == 1:
        best = min(feasible, key=lambda rec: (rec["_minimised"][0], rec["index"]))
    elif feasible:
        pareto = _pareto_front(feasible)
    for rec in records:
        rec.pop("_minimised")
    warnings = [] if feasible else ["no evaluation met every constraint"]
    summary = {
        "kind": "optimize", "netlist": setup.path, "method": method, "seed": seed,
        "parameters": [{"name": b.name, "unit": _unit_of(setup, b), "low": b.low, "high": b.high,
                        "start": b.unscaled(s0)}
                       for b, s0 in zip(setup.bounds, setup.starts)],
        "objectives": [{"name": g.name, "sense": g.sense,
                        "unit": output_unit(g.name, variables) if isinstance(g.output, str) else ""} for g in goals],
        "constraints": [{"name": c.output, "op": c.op, "limit": c.limit, "unit": output_unit(c.output, variables),
                         "text": c.text or f"{c.output}{c.op}{c.limit}"} for c in limits],
        "evaluations": records,
        "best": {"index": best["index"], "values": best["values"], "objectives": best["objectives"],
                 "constraints": best["constraints"]} if best else None,
        "pareto": [rec["index"] for rec in pareto], "warnings": warnings, "message": message,
        "evaluations_run": evaluations.ran,
    }
    if folder is not None:
        if reports:
            for rec in ([best] if best else []) + pareto:
                _report_run(setup, {b.name: b.value(rec["values"][b.name]) for b in setup.bounds},
                            folder / "runs" / f"{rec['index']:04d}", summary, rec, t_end)
        _write_summary(folder, summary)
    return OptimizeResult(summary["best"], [summary["evaluations"][rec["index"]] for rec in pareto], records,
                          summary, message)


def _pareto_front(records: Sequence[dict]) -> list[dict]:
    """The records no other record dominates (every objective as good, one better), one a
    point (the first evaluation of a point evaluated twice)."""
    front, seen = [], set()
    for a in records:
        fa = a["_minimised"]
        if tuple(fa) in seen:
            continue
        dominated = any(all(x <= y for x, y in zip(b["_minimised"], fa)) and any(x < y for x, y in
                                                                               zip(b["_minimised"], fa))
                        for b in records if b is not a)
        if not dominated:
            front.append(a)
            seen.add(tuple(fa))
    return sorted(front, key=lambda rec: (rec["_minimised"], rec["index"]))


def _nsga2(evaluations: _Evaluations, bounds: Sequence[Bounds], goals, limits, figures, seed: int, population: int,
           generations: int) -> str:
    """Optuna's NSGA-II through its ask-and-tell interface: each generation is asked for
    at once, runs as one batch, and is told its objectives (and constraint violations,
    which NSGA-II ranks feasible points ahead by)."""
    import logging

    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    logging.getLogger("optuna").setLevel(logging.WARNING)
    sampler = optuna.samplers.NSGAIISampler(population_size=population, seed=seed,
                                            constraints_func=(lambda trial: trial.user_attrs["violations"])
                                            if limits else None)
    search = optuna.create_study(directions=["minimize"] * len(goals), sampler=sampler)
    space = {b.name: optuna.distributions.FloatDistribution(0.0, 1.0) for b in bounds}
    for _ in range(generations):
        trials = [search.ask(space) for _ in range(population)]
        rows = evaluations([_point(bounds, [trial.params[b.name] for b in bounds]) for trial in trials])
        for trial, row in zip(trials, rows):
            objs, cons, violation = figures(row)
            if limits:
                trial.set_user_attr("violations", [c.violation(v) if math.isfinite(v) else 1e30
                                                   for c, v in zip(limits, cons)])
            if math.isfinite(violation) or limits:
                finite = [v if math.isfinite(v) else 1e30 for v in objs]
                search.tell(trial, finite)
            else:
                search.tell(trial, state=optuna.trial.TrialState.FAIL)
    return f"{generations} generations of {population}"


# ---------------------------------------------------------------------------------------
# What a study leaves in its folder


def _write_summary(folder: Path, summary: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    # NaN (a failed figure) as null: summary.json is read by other programs than Python.
    text = json.dumps(_nan_to_none(summary), indent=1, default=study._json_default, allow_nan=False) + "\n"
    (folder / "summary.json").write_text(text, encoding="utf-8")
    try:
        from . import study_page
    except ImportError:  # (the page arrives with its own change)
        return
    study_page.write_study_page(folder, json.loads(text))


def _nan_to_none(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (np.floating,)):
        return _nan_to_none(float(value))
    if isinstance(value, Mapping):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_nan_to_none(v) for v in value]
    return value


def _report_run(setup: _Setup, values: Mapping[str, Any], folder: Path, summary: dict, record: dict | None,
                t_end: float | None = None) -> None:
    """Runs the point again with its report (results.csv, summary.json, report.html)."""
    try:
        setup.model.run(dict(values), solver=setup.solver, t_end=t_end, output_dir=folder, report=True, check=False)
    except Exception:  # the study's result stands without its report
        return
    if record is not None:
        link = os.path.relpath(folder / "report.html", folder.parent.parent)
        record["report"] = link
        for rec in summary["evaluations"]:
            if rec["index"] == record["index"]:
                rec["report"] = link
