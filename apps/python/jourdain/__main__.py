"""python3 -m jourdain sweep: parameter studies from the command line.

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
"""

from __future__ import annotations

import argparse
import logging
import math
import signal
import sys

from . import study
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m jourdain", description="Jourdain parameter studies")
    commands = parser.add_subparsers(dest="command", required=True)
    sweep = commands.add_parser("sweep", help="run a netlist over a set of parameter values (dask.distributed)")
    sweep.add_argument("netlist")
    sweep.add_argument("--param", action="append", default=[], metavar="NAME=VALUES", help="repeatable")
    sweep.add_argument("--output", action="append", default=[], metavar="SPEC",
                       help="VAR[:final|initial|min|max|absmax|mean|tmin|tmax], wall_time, summary:PATH; repeatable")
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
    if args.quiet:
        # -q: errors only, dask's too (its warnings: a worker restarted, memory high, ...).
        logging.getLogger("distributed").setLevel(logging.ERROR)
    _stop_cleanly_on_signals()
    # The progress line is drawn on a terminal only, and left unfinished when stopped.
    progress_line = not args.quiet and sys.stderr.isatty()
    runs = None

    try:
        runs = build_runs(args.param, args.zip, args.lhs, args.monte_carlo, args.seed)
        solver = {}
        for item in args.solver:
            key, eq, value = item.partition("=")
            if not eq:
                raise InputError(f"--solver '{item}': expected KEY=VALUE")
            try:
                solver[key] = float(value) if key != "method" else value
            except ValueError:
                solver[key] = value
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
