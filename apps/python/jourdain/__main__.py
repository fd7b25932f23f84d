"""python3 -m jourdain sweep|fit|optimize: studies from the command line.

    python3 -m jourdain sweep netlists/position_servo.json \\
        --param pi.kp=0.01:0.05:5 --param "load.mass=80 kg,120 kg" \\
        --output load.x:max --output wall_time -o results/servo_study

A parameter's values: ``START:STOP:COUNT [UNIT]`` (evenly spaced, both ends included),
a comma-separated list (``"180 bar,200 bar"``; a bare number is SI), or, with ``--lhs N``
or ``--monte-carlo N``, a distribution: ``uniform:LOW:HIGH [UNIT]`` or
``normal:MEAN:STD [UNIT]``. Lists and ranges combine as a full factorial (``--zip``: the
k-th values together). Exit codes as ``jourdain``: 0 done (every run finished), 1 done
with failed runs (their rows say why), 2 bad input, 128 + the signal's number when
stopped by Ctrl-C (SIGINT, 130), SIGTERM (143) or SIGHUP (129): the rows done so far stay
in rows.jsonl, and the same command runs the others.

    python3 -m jourdain fit netlists/position_servo.json --data netlists/reference/position_servo_measured.csv \\
        --param "valve.max_opening=5:20 mm" --param cylinder.viscous_friction=500:5000 -o results/servo_fit
    python3 -m jourdain optimize netlists/mass_spring_damper.json \\
        --param damper.damping=1:40 --objective mass.x:integral_square -o results/msd_damping_cli

A design study's parameter: ``NAME=LOW:HIGH[:START] [UNIT]``. An objective is an output
as the sweep's (``max:SPEC`` to maximise); a constraint ``SPEC<LIMIT [UNIT]`` or
``SPEC>LIMIT [UNIT]``. Their evaluations go to rows.jsonl as they complete: stopped, the
same command (same seed) resumes and ends as an uninterrupted study (jourdain/design.py).
"""

from __future__ import annotations

import argparse
import logging
import math
import signal
import sys

from . import design, study
from .model import InputError


def parse_values(text: str, sampled: bool):
    """The values (or, for a sampled study, the distribution) of one --param."""
    head, _, unit = text.strip().partition(" ")
    unit = unit.strip()
    parts = head.split(":")
    try:
        if parts[0] in ("uniform", "normal"):
            if not sampled:
                raise ValueError("a distribution needs --lhs N or --monte-carlo N")
            low, high = _finite(parts[1]), _finite(parts[2])
            if parts[0] == "uniform" and not low < high:
                raise ValueError(f"uniform:LOW:HIGH needs LOW < HIGH")
            if parts[0] == "normal" and not high > 0:
                raise ValueError(f"normal:MEAN:STD needs STD > 0")
            return study.Uniform(low, high, unit) if parts[0] == "uniform" else study.Normal(low, high, unit)
        if len(parts) == 3:
            count = int(parts[2])
            if count < 1:
                raise ValueError("START:STOP:COUNT needs COUNT >= 1")
            return study.linspace(_finite(parts[0]), _finite(parts[1]), count, unit)
    except (IndexError, ValueError) as exc:
        raise InputError(f"--param value '{text}': {exc}") from None
    if sampled:
        raise InputError(f"--param value '{text}': a sampled study takes uniform:LOW:HIGH or normal:MEAN:STD")
    values = []
    for item in text.split(","):
        number, unit = study.split_quantity(item)
        if isinstance(number, float) and not math.isfinite(number):
            raise InputError(f"--param value '{text}': '{item.strip()}' is not a finite number")
        if not isinstance(number, float):
            raise InputError(f"--param value '{text}': '{item.strip()}' is not a number (with a unit), "
                             f"START:STOP:COUNT, or a distribution")
        values.append(item.strip() if unit else number)
    return values


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"'{text}' is not a finite number")
    return value


def build_runs(params: list[str], zip_lists: bool, lhs: int | None, monte_carlo: int | None, seed: int):
    values = {}
    for spec in params:
        name, eq, text = spec.partition("=")
        if not eq or not name or not text:
            raise InputError(f"--param '{spec}': expected NAME=VALUES")
        if name.strip() in values:
            raise InputError(f"--param {name.strip()}: given twice (one --param a parameter)")
        values[name.strip()] = parse_values(text, sampled=bool(lhs or monte_carlo))
    # Lazy designs: a study of 10^7 runs does not hold them (study.Design).
    if lhs:
        return study.latin_hypercube(values, lhs, seed, lazy=True)
    if monte_carlo:
        return study.monte_carlo(values, monte_carlo, seed, lazy=True)
    return study.zipped(values, lazy=True) if zip_lists else study.grid(values, lazy=True)


class Stopped(KeyboardInterrupt):
    """A signal asked the study to stop. A KeyboardInterrupt, as Ctrl-C is in Python, so
    that it ends the study wherever it waits and no ``except Exception`` swallows it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _stop(signum: int, _frame) -> None:
    # As `jourdain run`: the first signal stops the study cleanly (the cluster is closed,
    # the rows done are on disk), a second one ends the process at once.
    for s in STOP_SIGNALS:
        if signal.getsignal(s) is _stop:
            signal.signal(s, signal.SIG_DFL)
    raise Stopped(signum)


def _stop_cleanly_on_signals() -> None:
    """SIGINT, SIGTERM and SIGHUP stop the study as Ctrl-C does. A signal the process was
    started with ignored stays ignored (nohup's SIGHUP, a background job's SIGINT)."""
    for s in STOP_SIGNALS:
        if signal.getsignal(s) is not signal.SIG_IGN:
            signal.signal(s, _stop)


def _rows_on_disk(folder: str) -> int:
    try:
        with open(f"{folder}/rows.jsonl", "rb") as rows:
            return sum(1 for line in rows if line.endswith(b"\n"))
    except OSError:
        return 0


def _common_options(command: argparse.ArgumentParser, what: str) -> None:
    """The options every study takes: solver settings, the cluster, plugins, output."""
    command.add_argument("--solver", action="append", default=[], metavar="KEY=VALUE",
                         help="a solver setting for every run (method=bdf, rtol=1e-8); repeatable")
    command.add_argument("--scheduler", help="a dask scheduler's address (tcp://HOST:8786); default: a local cluster")
    command.add_argument("--workers", type=int, help="local cluster: worker processes (default: one per core)")
    command.add_argument("--plugin", action="append", default=[], help="a plugin to load on every worker")
    command.add_argument("--allow-plugins", action="store_true",
                         help="load the plugins the netlist names (they run code: only for netlists you trust)")
    command.add_argument("-o", "--output-dir", required=True, help=what)
    command.add_argument("-q", "--quiet", action="store_true")
    command.add_argument("--progress-lines", action="store_true",
                         help="the progress as lines 'progress DONE TOTAL' on stderr (for programs driving a study)")


def _solver_settings(items: list[str]) -> dict:
    solver = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq:
            raise InputError(f"--solver '{item}': expected KEY=VALUE")
        try:
            solver[key] = float(value) if key != "method" else value
        except ValueError:
            solver[key] = value
    return solver


def _design_study(args) -> int:
    """jourdain fit / jourdain optimize: runs the study, prints what it found."""
    progress_line = not args.quiet and sys.stderr.isatty()

    def progress(done: int) -> None:
        if args.progress_lines:
            print(f"progress {done} {args.max_evaluations}", file=sys.stderr, flush=True)
        if progress_line:
            print(f"\r{done} evaluations", end="", file=sys.stderr, flush=True)

    common = dict(solver=_solver_settings(args.solver), output_dir=args.output_dir, scheduler=args.scheduler,
                  workers=args.workers, plugins=args.plugin, allow_plugins=args.allow_plugins, quiet=args.quiet,
                  progress=progress, max_evaluations=args.max_evaluations)
    if args.command == "fit":
        weights = {}
        for item in args.weight:
            name, eq, value = item.partition("=")
            if not eq:
                raise InputError(f"--weight '{item}': expected VARIABLE=WEIGHT")
            weights[name.strip()] = float(value)
        found = design.fit(args.netlist, args.data, args.param, signals=args.signal or None, weights=weights or None,
                           **common)
        if progress_line:
            print(file=sys.stderr)
        if not args.quiet:
            level = int(round(100 * design.CONFIDENCE))
            for parameter in found.summary["parameters"]:
                name, unit = parameter["name"], parameter["unit"]
                low, high = found.intervals[name]
                print(f"{name} = {found.estimates[name]:.6g} {unit} (standard error {found.std_errors[name]:.3g}; "
                      f"{level} % interval {low:.6g} .. {high:.6g})".replace("  ", " "))
            print(f"residual standard deviation {found.residual_std:.4g} (weighted), {found.dof} degrees of freedom, "
                  f"{len(found.evaluations)} evaluations: {args.output_dir}/summary.json, {args.output_dir}/study.html")
        for warning in found.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        return 0 if found.converged else 1
    objectives = args.objective
    if not objectives:
        raise InputError("optimize: give at least one --objective SPEC")
    found = design.optimize(args.netlist, args.param, objectives, constraints=args.constraint, method=args.method,
                            seed=args.seed, population=args.population, generations=args.generations,
                            t_end=args.t_end, reports=not args.no_reports, **common)
    if progress_line:
        print(file=sys.stderr)
    if not args.quiet:
        if found.best:
            values = ", ".join(f"{k} = {v:.6g}" for k, v in found.best["values"].items())
            print(f"best: {values}; objective {found.best['objectives'][0]:.6g}")
        for point in found.pareto:
            values = ", ".join(f"{k} = {v:.6g}" for k, v in point["values"].items())
            print(f"pareto: {values}; objectives {', '.join(f'{o:.6g}' for o in point['objectives'])}")
        print(f"{len(found.evaluations)} evaluations ({found.message}): {args.output_dir}/summary.json, "
              f"{args.output_dir}/study.html")
    for warning in found.summary["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    return 0 if (found.best or found.pareto) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m jourdain", description="Jourdain studies")
    commands = parser.add_subparsers(dest="command", required=True)
    fit = commands.add_parser("fit", help="estimate parameters from a measurement (least squares, intervals)")
    fit.add_argument("netlist")
    fit.add_argument("--data", required=True, help="the measurement: CSV with a time column and one per variable")
    fit.add_argument("--param", action="append", default=[], required=True, metavar="NAME=LOW:HIGH[:START] [UNIT]",
                     help="a parameter to estimate, within its bounds; repeatable")
    fit.add_argument("--signal", action="append", default=[], metavar="VARIABLE",
                     help="fit this column only (default: every column but time); repeatable")
    fit.add_argument("--weight", action="append", default=[], metavar="VARIABLE=WEIGHT",
                     help="a signal's weight (1/its noise's standard deviation; default: 1/its spread)")
    fit.add_argument("--max-evaluations", type=int, default=400)
    _common_options(fit, "summary.json, study.html, rows.jsonl (resumable), runs/fitted")
    optimize = commands.add_parser("optimize", help="optimise parameters for objectives within constraints")
    optimize.add_argument("netlist")
    optimize.add_argument("--param", action="append", default=[], required=True,
                          metavar="NAME=LOW:HIGH[:START] [UNIT]", help="a parameter to vary; repeatable")
    optimize.add_argument("--objective", action="append", default=[], metavar="[max:]SPEC",
                          help="an output to minimise (max: to maximise); two or more: a Pareto front (nsga2)")
    optimize.add_argument("--constraint", action="append", default=[], metavar="SPEC<LIMIT [UNIT]",
                          help="an output kept below (<) or above (>) a limit; repeatable")
    optimize.add_argument("--method", choices=design.METHODS,
                          help="default: nelder-mead for one objective, nsga2 for several")
    optimize.add_argument("--seed", type=int, default=0)
    optimize.add_argument("--max-evaluations", type=int, default=400)
    optimize.add_argument("--population", type=int, help="differential-evolution and nsga2: points a generation")
    optimize.add_argument("--generations", type=int, help="differential-evolution and nsga2")
    optimize.add_argument("--t-end", type=float)
    optimize.add_argument("--no-reports", action="store_true", help="do not run the best (Pareto) points' reports")
    _common_options(optimize, "summary.json, study.html, rows.jsonl (resumable), runs/NNNN/report.html")
    sweep = commands.add_parser("sweep", help="run a netlist over a set of parameter values (dask.distributed)")
    sweep.add_argument("netlist")
    sweep.add_argument("--param", action="append", default=[], metavar="NAME=VALUES", help="repeatable")
    sweep.add_argument("--output", action="append", default=[], metavar="SPEC",
                       help="VAR[:final|initial|min|max|absmax|mean|tmin|tmax|integral|integral_square|overshoot|settling], wall_time, summary:PATH; repeatable")
    sweep.add_argument("--zip", action="store_true", help="take the k-th value of every list together")
    sweep.add_argument("--lhs", type=int, metavar="N", help="N Latin-hypercube samples of the distributions")
    sweep.add_argument("--monte-carlo", type=int, metavar="N", help="N random samples of the distributions")
    sweep.add_argument("--seed", type=int, default=0)
    sweep.add_argument("--solver", action="append", default=[], metavar="KEY=VALUE",
                       help="a solver setting for every run (method=bdf, rtol=1e-8); repeatable")
    sweep.add_argument("--t-end", type=float)
    sweep.add_argument("--scheduler", help="a dask scheduler's address (tcp://HOST:8786); default: a local cluster")
    sweep.add_argument("--workers", type=int, help="local cluster: worker processes (default: one per core)")
    sweep.add_argument("--plugin", action="append", default=[], help="a plugin to load on every worker")
    sweep.add_argument("--allow-plugins", action="store_true",
                       help="load the plugins the netlist names (they run code: only for netlists you trust)")
    sweep.add_argument("-o", "--output-dir", required=True, help="sweep.csv, sweep.html, rows.jsonl (resumable)")
    sweep.add_argument("-q", "--quiet", action="store_true")
    sweep.add_argument("--progress-lines", action="store_true",
                       help="the progress as lines 'progress DONE TOTAL' on stderr (for programs driving a study)")
    args = parser.parse_args(argv)
    if args.command in ("fit", "optimize"):
        if args.quiet:
            logging.getLogger("distributed").setLevel(logging.ERROR)
        _stop_cleanly_on_signals()
        try:
            return _design_study(args)
        except (InputError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            study.silence_dask()
            print(f"error: {exc}", file=sys.stderr)
            return 1
        except KeyboardInterrupt as stop:
            study.silence_dask()
            signum = getattr(stop, "signum", signal.SIGINT)
            print(f"error: study interrupted by signal {signum} ({signal.strsignal(signum)}): "
                  f"{_rows_on_disk(args.output_dir)} evaluations done, kept in {args.output_dir}/rows.jsonl; the same "
                  f"command resumes", file=sys.stderr)
            return 128 + signum
    if args.quiet:
        # -q: errors only, dask's too (its warnings: a worker restarted, memory high, ...).
        logging.getLogger("distributed").setLevel(logging.ERROR)
    _stop_cleanly_on_signals()
    # The progress line is drawn on a terminal only, and left unfinished when stopped.
    progress_line = not args.quiet and sys.stderr.isatty()
    runs = None

    try:
        runs = build_runs(args.param, args.zip, args.lhs, args.monte_carlo, args.seed)
        solver = _solver_settings(args.solver)
        if args.t_end is not None and not (math.isfinite(args.t_end) and args.t_end > 0):
            raise InputError(f"--t-end {args.t_end}: not a positive, finite time")

        def progress(done: int, total: int) -> None:
            if args.progress_lines and total:
                print(f"progress {done} {total}", file=sys.stderr, flush=True)
            if progress_line:
                print(f"\r{done}/{total} runs", end="" if done < total else "\n", file=sys.stderr, flush=True)

        frame = study.sweep(args.netlist, runs, args.output or ["wall_time"], output_dir=args.output_dir,
                            scheduler=args.scheduler, workers=args.workers, solver=solver, t_end=args.t_end,
                            plugins=args.plugin, allow_plugins=args.allow_plugins, progress=progress,
                            quiet=args.quiet)
        not_finished = int((frame["status"] != "finished").sum())
        if not args.quiet:
            print(f"{len(frame)} runs, {not_finished} not finished: {args.output_dir}/sweep.csv, "
                  f"{args.output_dir}/sweep.html")
        return 1 if not_finished else 0
    except (InputError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a scheduler out of reach, a full disk: said in one line
        study.silence_dask()
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as stop:  # Stopped, or a Ctrl-C before the handlers were in place
        # Whatever dask still says as the interpreter exits (a cluster stopped while it was
        # starting is closed then) is noise too.
        study.silence_dask()
        signum = getattr(stop, "signum", signal.SIGINT)
        total = f" of {len(runs)}" if runs is not None else ""
        # One line, on stderr as an error (also under -q), as `jourdain run` says it.
        print(f"{chr(10) if progress_line else ''}error: study interrupted by signal {signum} "
              f"({signal.strsignal(signum)}): {_rows_on_disk(args.output_dir)}{total} runs done, kept in "
              f"{args.output_dir}/rows.jsonl; the same command runs the others", file=sys.stderr)
        return 128 + signum


if __name__ == "__main__":
    sys.exit(main())
