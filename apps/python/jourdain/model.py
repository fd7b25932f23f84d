"""Models, runs and their results: the Python face of `jourdain run` and `jourdain linearize`.

A :class:`Model` is a netlist loaded once and never changed: every :meth:`Model.run` gets
its own parameter values, initial states and solver settings, so one model serves any
number of runs, in threads at once (the GIL is released while a run integrates).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import numpy as np

from . import _jourdain

InputError = _jourdain.InputError  # bad input: a ValueError naming file, JSON path, component, port
Error = _jourdain.Error  # Jourdain's other errors (a file that cannot be written, ...)
SimulationError = _jourdain.SimulationError
OutputError = _jourdain.OutputError  # a file that cannot be written (an OSError): before a run


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or another signal whose handler raises) during :meth:`Model.run`: the run
    stopped cleanly, and ``result`` holds everything it computed (all of it when the signal
    came as it ended). Caught as a KeyboardInterrupt, as any Ctrl-C."""

    def __init__(self, result: "Result"):
        super().__init__(f"run interrupted at t = {result.time[-1] if len(result.time) else 0:g} s"
                         f" ({'finished' if result.finished else 'stopped'}; the result is kept)")
        self.result = result


class SimulationFailed(SimulationError):
    """A run that ended before its end time. ``result`` holds everything up to the failure."""

    def __init__(self, result: "Result"):
        super().__init__(f"simulation failed {result.failure}")
        self.result = result


# The largest netlist text read, as for a file (framework/src/netlist_levels.cpp).
_MAX_NETLIST_BYTES = 64 << 20


def _value_text(value: Any, name: str = "", what: str = "parameter") -> str:
    """A parameter or initial value as the JSON the core reads: a number (SI) or a string
    with a unit ("250 bar"). numpy scalars become Python numbers first. NaN and infinities
    are bad input, named here: JSON has no spelling for them."""
    if isinstance(value, (np.floating, np.integer)):
        value = value.item()
    named = f"{what} '{name}': " if name else ""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"{named}expected a number or a string with a unit, not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(f"{named}{value!r} is not a finite number")
    return json.dumps(value)


def _named_values(values: Mapping[str, Any] | None, what: str = "parameter") -> list[tuple[str, str]]:
    if values is not None and not isinstance(values, Mapping):
        raise TypeError(f"{what} values must be a mapping of names to values, not {type(values).__name__}")
    return [(str(name), _value_text(value, str(name), what)) for name, value in (values or {}).items()]


def _solver_text(solver: Mapping[str, Any] | None) -> str:
    """The run's solver settings as JSON, each value checked as the netlist's would be."""
    if solver is not None and not isinstance(solver, Mapping):
        raise TypeError(f"solver must be a mapping of the netlist's solver keys, not {type(solver).__name__}")
    settings = {}
    for key, value in (solver or {}).items():
        value = _plain(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise InputError(f"solver '{key}': {value!r} is not a finite number")
        settings[str(key)] = value
    return json.dumps(settings)


def _plain(value: Any) -> Any:
    """Solver settings with numpy scalars made JSON-friendly."""
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return value


class Library:
    """The component types and solver methods models are built from: the built-in ones and
    the plugins loaded here (shared libraries, as ``jourdain --plugin``)."""

    def __init__(self, plugins: Iterable[str | os.PathLike] = ()):
        self._core = _jourdain.Library()
        for plugin in plugins:
            self.load_plugin(plugin)

    def load_plugin(self, path: str | os.PathLike) -> None:
        self._core.load_plugin(os.fspath(path))

    def types(self) -> list[dict]:
        """Every component type: name, one-line summary, origin (built-in or a plugin's path)."""
        return json.loads(self._core.types())

    def describe(self, type_name: str, params: Mapping[str, Any] | None = None) -> dict:
        """Ports, parameters (units, defaults, ranges), states and variables of a type, as
        ``jourdain describe TYPE --json``; configured with ``params`` (values as in a netlist)
        when given, so that the ports follow them (``{"ports": 3}``)."""
        return json.loads(self._core.describe(type_name, json.dumps(_plain_params(params or {}))))

    def check(self, source: str | os.PathLike | Mapping, *, file: str | os.PathLike | None = None,
              allow_plugins: bool = False, library_folders: Iterable[str | os.PathLike] = (),
              allow_any_path: bool = False, max_components: int = 100_000) -> list[dict]:
        """Every problem of a netlist at once, as ``jourdain check --json`` lists them: dicts
        with severity, file, line, column, path, component, port, message, suggestion. An
        empty list: the netlist loads. The same trust as :meth:`load`."""
        text, name = _netlist_text(source, file)
        trust = {"allow_plugins": bool(allow_plugins), "allow_any_path": bool(allow_any_path),
                 "max_components": int(max_components),
                 "library_folders": [os.fspath(f) for f in library_folders]}
        return json.loads(_jourdain.check_text(self._core, text, name, trust))["diagnostics"]

    def solvers(self) -> dict:
        """The solver methods and their settings, as ``jourdain solvers --json``."""
        return json.loads(self._core.solvers())

    def load(self, source: str | os.PathLike | Mapping, *, file: str | os.PathLike | None = None,
             configuration: Mapping[str, Any] | None = None, allow_plugins: bool = False,
             library_folders: Iterable[str | os.PathLike] = (), allow_any_path: bool = False,
             max_components: int = 100_000) -> "Model":
        """Loads a netlist: a file path, a dict, or JSON text (a string starting with ``{``).

        ``file`` names a dict's or a text's netlist in messages and is the folder its plugins
        and subsystem files are found from (default: the working folder). ``configuration``
        overrides parameters that shape the model (as ``--set``); numeric parameters are
        better given to each run.

        A netlist may come from someone else, so, as on the command line, the plugins it names
        load only with ``allow_plugins=True`` (or from a folder in ``JOURDAIN_PLUGIN_PATH``);
        its subsystem files are read from its own folder and ``library_folders`` (and
        ``JOURDAIN_LIBRARY_PATH``) only, unless ``allow_any_path``; and it may stand for at
        most ``max_components`` components (README: "Running netlists from others").
        """
        if isinstance(max_components, bool) or not isinstance(max_components, (int, np.integer)):
            raise TypeError(f"max_components must be a whole number, not {max_components!r}")
        if max_components < 0:
            raise InputError(f"max_components must be 0 (no limit) or more, not {max_components}")
        sets = [f"{name}={_value_text(value, name) if not isinstance(value, str) else value}"
                for name, value in (configuration or {}).items()]
        # The session (apps/session) adds the folders of JOURDAIN_PLUGIN_PATH and
        # JOURDAIN_LIBRARY_PATH, as it does for the command line.
        trust = {"allow_plugins": bool(allow_plugins), "allow_any_path": bool(allow_any_path),
                 "max_components": int(max_components),
                 "library_folders": [os.fspath(f) for f in library_folders]}
        if isinstance(source, (bytes, bytearray)) and bytes(source).lstrip().startswith(b"{"):
            source = bytes(source).decode("utf-8")  # JSON text, as a str would be
        if isinstance(source, Mapping):
            try:
                text = json.dumps(source, allow_nan=False)
            except ValueError as error:
                raise InputError(f"the netlist holds a number JSON cannot write (NaN or infinity): {error}") from None
        elif isinstance(source, str) and source.lstrip().startswith("{"):
            text = source
        else:
            path = os.fspath(source)
            return Model(_jourdain.load_file(self._core, path, sets, trust), self)
        name = os.fspath(file) if file is not None else os.path.join(os.getcwd(), "<netlist>.json")
        if len(text.encode("utf-8")) > _MAX_NETLIST_BYTES:
            raise InputError(f"{name}: is larger than 64 MiB, the limit for a netlist")
        return Model(_jourdain.load_text(self._core, text, name, sets, trust), self)


def _plain_params(params: Mapping[str, Any]) -> dict:
    return {name: _plain(value) for name, value in params.items()}


def _netlist_text(source: str | os.PathLike | Mapping, file: str | os.PathLike | None) -> tuple[str, str]:
    """A netlist's JSON text and the name its messages use: from a dict, JSON text or a file."""
    if isinstance(source, Mapping):
        text = json.dumps(source, allow_nan=False)
    elif isinstance(source, str) and source.lstrip().startswith("{"):
        text = source
    else:
        path = os.fspath(source)
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    return text, os.fspath(file) if file is not None else os.path.join(os.getcwd(), "<netlist>.json")


def format_netlist(path: str | os.PathLike, *, output: str | os.PathLike | None = None,
                   drop_comments: bool = False) -> bool:
    """Writes a netlist file back in its canonical text, as ``jourdain format`` does (key
    order kept, 2-space indentation, numbers spelt as written): over the file, or to
    ``output``. Returns whether the text changed. Comments are dropped only with
    ``drop_comments``; the file is replaced whole (written beside it, then renamed)."""
    path = os.fspath(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    canonical, has_comments = _jourdain.canonical_text(text, path)
    if has_comments and not drop_comments:
        raise InputError(f"{path}: the file has comments, which the canonical text cannot keep: remove them, "
                         "or give drop_comments=True")
    target = os.fspath(output) if output is not None else path
    if target == path and canonical == text:
        return False
    partial = f"{target}.{os.getpid()}.part"
    try:
        with open(partial, "w", encoding="utf-8") as f:
            f.write(canonical)
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    return canonical != text


def check(source: str | os.PathLike | Mapping, *, file: str | os.PathLike | None = None,
          plugins: Iterable[str | os.PathLike] = (), **trust: Any) -> list[dict]:
    """Every problem of a netlist at once (:meth:`Library.check`), with the built-in types
    and ``plugins``."""
    return Library(plugins).check(source, file=file, **trust)


def load(source: str | os.PathLike | Mapping, *, file: str | os.PathLike | None = None,
         configuration: Mapping[str, Any] | None = None, plugins: Iterable[str | os.PathLike] = (),
         **trust: Any) -> "Model":
    """Loads a netlist into a new :class:`Library` (built-in types and ``plugins``).
    ``trust``: ``allow_plugins``, ``library_folders``, ``allow_any_path``, ``max_components``
    as for :meth:`Library.load`."""
    return Library(plugins).load(source, file=file, configuration=configuration, **trust)


@dataclass(frozen=True)
class Parameter:
    """A numeric parameter of a loaded model: settable per run."""
    name: str
    unit: str
    default: float  # SI: the netlist's value, else the type's default
    range: str


class Model:
    """A loaded netlist. Immutable: runs differ by the values given to :meth:`run`."""

    def __init__(self, core: Any, library: Library):
        self._core = core
        self.library = library
        self._info = json.loads(core.info())

    name = property(lambda self: self._info["name"])
    description = property(lambda self: self._info["description"])
    file = property(lambda self: self._info["file"])
    analysis = property(lambda self: self._info["analysis"], doc="dynamic, kinematic, static or linear")
    document = property(lambda self: self._info["document"], doc="the netlist as read (a dict)")
    solver = property(lambda self: dict(self._info["solver"]), doc="the netlist's solver settings")
    record = property(lambda self: list(self._info["record"]), doc="the variables a run records")
    states = property(lambda self: list(self._info["states"]), doc="continuous states, 'component.state'")
    components = property(lambda self: {c["name"]: c["type"] for c in self._info["components"]})

    @property
    def parameters(self) -> dict[str, Parameter]:
        return {p["name"]: Parameter(p["name"], p["unit"], p["default"], p["range"]) for p in self._info["parameters"]}

    @property
    def variables(self) -> dict[str, str]:
        """Every recordable variable and its SI unit."""
        return {v["name"]: v["unit"] for v in self._info["recordable"]}

    def run(self, parameters: Mapping[str, Any] | None = None, *, initial: Mapping[str, Any] | None = None,
            solver: Mapping[str, Any] | None = None, t_end: float | None = None,
            output_dir: str | os.PathLike | None = None, report: bool = True, check: bool = True,
            strict: bool = False, energy: bool = False) -> "Result":
        """Runs the model once.

        ``parameters`` and ``initial`` map ``"component.parameter"`` / ``"component.state"`` to a
        number (SI) or a string with a unit (``"250 bar"``). ``solver`` replaces keys of the
        netlist's solver object (``{"method": "bdf", "rtol": 1e-8}``). With ``output_dir`` the
        run writes results.csv, summary.json and (``report``) report.html there, as
        ``jourdain run -o``. Bad input raises :class:`InputError`; a run that fails raises
        :class:`SimulationFailed` carrying the partial result (``check=False``: it is returned).
        ``strict`` (or the netlist's ``"strict": true``) makes a run that ends with an accuracy
        warning (``Result.accuracy_warnings``: results not vouched for) a failed one, as
        ``jourdain run --strict``. ``energy`` (or the netlist's ``"energy": true``) keeps an energy
        account: ``Result.summary["energy"]`` says, per component and domain, the energy in, out,
        lost, supplied and stored, and the balance, as ``jourdain run --energy``.
        """
        if t_end is not None:
            if isinstance(t_end, bool) or not isinstance(t_end, (int, float, np.integer, np.floating)):
                raise TypeError(f"t_end must be a number of seconds, not {t_end!r}")
            if not math.isfinite(float(t_end)):
                raise InputError(f"t_end: {float(t_end)!r} is not a finite time")
            t_end = float(t_end)
        raw = self._core.run(_named_values(parameters), _named_values(initial, "initial value"),
                             _solver_text(solver), t_end,
                             os.fspath(output_dir) if output_dir is not None else "", report, strict,
                             energy)
        result = Result(columns=raw["columns"], data=raw["rows"], summary=json.loads(raw["summary"]),
                        warnings=list(raw["warnings"]), failure=raw["failure"], wall_time_s=raw["wall_time_s"],
                        parameters=dict(parameters or {}), accuracy_warnings=list(raw["accuracy_warnings"]))
        if raw["interruption"] is not None:
            raise RunInterrupted(result) from raw["interruption"]
        if check and not result.finished:
            raise SimulationFailed(result)
        return result

    def linearize(self, at: str | float | None = None, *, inputs: Iterable[str] = (), outputs: Iterable[str] = (),
                  frequency_from: float | None = None, frequency_to: float | None = None,
                  parameters: Mapping[str, Any] | None = None, output_dir: str | os.PathLike | None = None,
                  check: bool = True) -> "LinearModel":
        """The linear model dx/dt = A x + B u, y = C x + D u at an operating point, as
        ``jourdain linearize``: ``at`` is "equilibrium" (default), "initial" or a time
        (2.5 or "250 ms"); inputs are numeric parameters, outputs recordable variables."""
        at_text = "" if at is None else (repr(float(at)) if isinstance(at, (int, float)) else str(at))
        raw = self._core.linearize(at_text, list(inputs), list(outputs), frequency_from, frequency_to,
                                   _named_values(parameters), os.fspath(output_dir) if output_dir is not None else "")
        if check and not raw["finished"]:
            raise SimulationError(f"linear analysis failed {raw['failure']}")
        return LinearModel(raw)


@dataclass
class Result:
    """One run: time and every recorded variable as numpy arrays, the summary (summary.json
    as a dict), warnings and events. ``result["load.x"]`` is a column."""
    columns: list[str]
    data: np.ndarray  # rows × columns, "time" first, SI units
    summary: dict
    warnings: list[str]
    failure: str = ""
    wall_time_s: float = 0.0
    parameters: dict = field(default_factory=dict)
    # The warnings that say the results are not vouched for (a subset of ``warnings``).
    accuracy_warnings: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        return self.summary.get("status", "failed")

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def time(self) -> np.ndarray:
        return self["time"]

    @property
    def events(self) -> list[dict]:
        return list(self.summary.get("events", []))

    @property
    def units(self) -> dict[str, str]:
        return {v["name"]: v.get("unit", "") for v in self.summary.get("variables", [])}

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.data[:, self.columns.index(name)]
        except ValueError:
            raise KeyError(f"no recorded variable '{name}'; recorded: {', '.join(self.columns[1:])}") from None

    def __contains__(self, name: str) -> bool:
        return name in self.columns

    def to_pandas(self):
        """A DataFrame indexed by time, one column per recorded variable."""
        import pandas as pd
        return pd.DataFrame(self.data[:, 1:], index=pd.Index(self.data[:, 0], name="time"), columns=self.columns[1:])


class LinearModel:
    """A, B, C, D as numpy arrays, the states they are over, the eigenvalues and modes, and
    the frequency response (``linear.json``'s content as ``.data``)."""

    def __init__(self, raw: Mapping[str, Any]):
        self.finished = bool(raw["finished"])
        self.failure = raw["failure"]
        self.warnings = list(raw["warnings"])
        self.summary = json.loads(raw["summary"])
        self.data = json.loads(raw["linear"]) if self.finished else {}
        empty = np.zeros((0, 0))
        self.A = np.asarray(raw.get("A", empty))
        self.B = np.asarray(raw.get("B", empty))
        self.C = np.asarray(raw.get("C", empty))
        self.D = np.asarray(raw.get("D", empty))
        self.x = np.asarray(raw.get("x", np.zeros(0)))
        self.basis = np.asarray(raw.get("basis", empty))
        self.eigenvalues = np.asarray(raw.get("eigenvalues", np.zeros(0, dtype=complex)))
        self.frequencies_hz = np.asarray(raw.get("frequencies_hz", np.zeros(0)))
        response = raw.get("response", [])
        # G[output, input, frequency]: the core lists the pairs output-major.
        n_out, n_in = self.C.shape[0], self.B.shape[1]
        self.response = (np.asarray(response).reshape(n_out, n_in, len(self.frequencies_hz))
                         if len(response) else np.zeros((n_out, n_in, 0), dtype=complex))

    states = property(lambda self: list(self.data.get("states", [])), doc="the states of A (independent coordinates)")
    inputs = property(lambda self: [u["name"] for u in self.data.get("inputs", [])])
    outputs = property(lambda self: [y["name"] for y in self.data.get("outputs", [])])
    modes = property(lambda self: list(self.data.get("modes", [])))
    stability = property(lambda self: self.data.get("stability", ""))
