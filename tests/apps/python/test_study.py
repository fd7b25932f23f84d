"""Parameter studies on a local dask cluster: designs, outputs, rows on disk as they
complete, resuming, and the study command line."""

import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

import jourdain
from jourdain import study
from conftest import JOURDAIN_EXE, NETLISTS

OSCILLATOR = NETLISTS / "mass_spring_damper.json"


def test_designs():
    runs = jourdain.grid({"a": [1, 2, 3], "b": ["1 bar", "2 bar"]})
    assert len(runs) == 6 and runs[0] == {"a": 1, "b": "1 bar"} and runs[1] == {"a": 1, "b": "2 bar"}
    assert jourdain.zipped({"a": [1, 2], "b": [3, 4]}) == [{"a": 1, "b": 3}, {"a": 2, "b": 4}]
    with pytest.raises(ValueError, match="one length"):
        jourdain.zipped({"a": [1, 2], "b": [3]})
    assert jourdain.linspace(1000, 2000, 3, "rpm") == ["1000.0 rpm", "1500.0 rpm", "2000.0 rpm"]
    # Latin hypercube: each of the n strata of each parameter holds exactly one sample.
    n = 16
    lhs = jourdain.latin_hypercube({"k": jourdain.Uniform(100, 200, "N/m"), "m": jourdain.Uniform(1, 2)}, n, seed=7)
    k = np.array([study.split_quantity(r["k"])[0] for r in lhs])
    m = np.array([r["m"] for r in lhs])
    assert sorted(np.floor((k - 100) / 100 * n).astype(int)) == list(range(n))
    assert sorted(np.floor((m - 1) * n).astype(int)) == list(range(n))
    assert all(r["k"].endswith(" N/m") for r in lhs)
    # Seeds make studies repeatable; Monte Carlo of a normal has its mean and spread.
    assert lhs == jourdain.latin_hypercube({"k": jourdain.Uniform(100, 200, "N/m"), "m": jourdain.Uniform(1, 2)}, n, 7)
    mc = np.array([r["x"] for r in jourdain.monte_carlo({"x": jourdain.Normal(5.0, 0.5)}, 4000, seed=1)])
    # Standard errors: 0.5/√4000 ≈ 0.008 for the mean; ≈ 0.0056 for the standard deviation.
    assert abs(mc.mean() - 5.0) < 0.04 and abs(mc.std() - 0.5) < 0.03
    assert study.split_quantity("250 bar") == (250.0, "bar") and study.split_quantity(3) == (3.0, "")
    # Lazy designs make the same runs, one at a time, each time they are iterated.
    design = jourdain.latin_hypercube({"k": jourdain.Uniform(100, 200, "N/m"), "m": jourdain.Uniform(1, 2)}, n, 7,
                                      lazy=True)
    assert len(design) == n and list(design) == lhs and list(design) == lhs
    assert list(jourdain.grid({"a": [1, 2, 3], "b": ["1 bar", "2 bar"]}, lazy=True)) == runs
    assert len(jourdain.zipped({"a": [1, 2], "b": [3, 4]}, lazy=True)) == 2


def test_outputs_of_a_known_result():
    t = np.linspace(0.0, math.pi, 2001)
    result = jourdain.Result(columns=["time", "x"], data=np.column_stack([t, np.sin(t)]),
                             summary={"statistics": {"steps": 42}, "events": [{}, {}]}, warnings=[], wall_time_s=0.5)
    value = lambda spec: study.output_value(spec, result)
    assert value("x") == {"x": pytest.approx(0.0, abs=1e-12)}
    assert value("x:max")["x:max"] == pytest.approx(1.0, abs=1e-6)
    assert value("x:tmax")["x:tmax"] == pytest.approx(math.pi / 2, abs=1e-3)
    # Time average of sin over [0, π] is 2/π; the trapezoidal rule's error is ~h²/12 ≈ 2e-7.
    assert value("x:mean")["x:mean"] == pytest.approx(2 / math.pi, abs=1e-6)
    assert value("summary:statistics.steps") == {"summary:statistics.steps": 42}
    assert value("summary:events") == {"summary:events": 2}
    assert value("wall_time") == {"wall_time": 0.5}

    def peak_and_area(r):
        return {"peak": float(np.max(r["x"])), "area": float(np.trapz(r["x"], r.time))}

    assert value(peak_and_area)["area"] == pytest.approx(2.0, abs=1e-6)
    with pytest.raises(KeyError, match="statistic"):
        value("x:median")


def half_period(result):
    """The time of the first minimum of x(t): half a damped period, π / ω_d."""
    return float(result.time[int(np.argmin(result["mass.x"]))])


@pytest.fixture(scope="module")
def client():
    from dask.distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with Client(cluster) as c:
        yield c
    cluster.close()


def test_sweep_on_a_local_cluster(client, tmp_path):
    runs = jourdain.grid({"spring.stiffness": ["100 N/m", "400 N/m"], "mass.mass": [1.0, 4.0]})
    runs.append({"spring.stiffness": "-5 N/m", "mass.mass": 1.0})  # out of range: an error row
    runs.append({"spring.stiffness": "1e9 N/m", "mass.mass": 1.0})  # too stiff for 20000 steps: a failed run
    frame = jourdain.sweep(OSCILLATOR, runs, ["mass.x:min", half_period, "summary:statistics.steps", "wall_time"],
                           scheduler=client, solver={"t_end": 1.0, "output_interval": 0.001, "max_steps": 20000},
                           output_dir=tmp_path)
    assert list(frame["run"]) == list(range(6))
    assert list(frame["status"]) == ["finished"] * 4 + ["error", "failed"]
    assert "range" in frame["error"][4] and "max_steps" in frame["error"][5]
    assert frame.attrs["units"] == {"spring.stiffness": "N/m", "mass.mass": "kg", "mass.x:min": "m", "half_period": "",
                                    "summary:statistics.steps": "", "wall_time": "s"}
    assert list(frame["spring.stiffness"][:4]) == [100.0, 100.0, 400.0, 400.0]
    # Half a damped period: π / (ω0 √(1-ζ²)), ω0 = √(k/m), ζ = c / (2 √(k m)), c = 2 N·s/m;
    # read off a 1 ms output grid: within half a millisecond.
    for i in range(4):
        k, m = frame["spring.stiffness"][i], frame["mass.mass"][i]
        w0, zeta = math.sqrt(k / m), 2.0 / (2.0 * math.sqrt(k * m))
        expected = math.pi / (w0 * math.sqrt(1 - zeta**2))
        if expected < 1.0:
            assert frame["half_period"][i] == pytest.approx(expected, abs=6e-4)
    assert math.isnan(frame["mass.x:min"][4]) and math.isnan(frame["mass.x:min"][5])
    # What is on disk: a row per run as it completed, the table, the page.
    lines = (tmp_path / "rows.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["run"] for line in lines) == list(range(6))
    on_disk = pd.read_csv(tmp_path / "sweep.csv", float_precision="round_trip")
    assert list(on_disk["status"]) == list(frame["status"])
    assert np.allclose(on_disk["mass.x:min"][:4], frame["mass.x:min"][:4], rtol=0, atol=0)
    page = (tmp_path / "sweep.html").read_text()
    # The page toolkit's page: its script draws the plots from the data (test_sweep_page.py).
    data = page.split('<script id="report-data" type="application/json">')[1].split("</script>")[0]
    assert len(json.loads(data)["plots"]) >= 2 and "https://" not in page


def test_an_interrupted_study_resumes_without_rerunning_finished_rows(client, tmp_path):
    runs = jourdain.grid({"spring.stiffness": [100.0, 200.0, 300.0, 400.0]})
    outputs = ["mass.x:min"]
    solver = {"t_end": 0.5}
    first = jourdain.sweep(OSCILLATOR, runs, outputs, scheduler=client, solver=solver, output_dir=tmp_path)
    # As if the study had stopped after its first two rows: drop the others from the log.
    log = tmp_path / "rows.jsonl"
    kept = sorted(log.read_text().splitlines(), key=lambda line: json.loads(line)["run"])[:2]
    log.write_text("\n".join(kept) + "\n" + '{"run": 3, "torn')  # and a line torn by the crash
    done = []
    resumed = jourdain.sweep(OSCILLATOR, runs, outputs, scheduler=client, solver=solver, output_dir=tmp_path,
                             progress=lambda n, total: done.append(n))
    assert done == [3, 4]  # two runs made, the two kept ones not
    assert resumed.drop(columns=["wall_time_s", "worker"]).equals(first.drop(columns=["wall_time_s", "worker"]))
    for line in kept:
        row = json.loads(line)
        assert resumed["worker"][row["run"]] == row["worker"]
        assert resumed["wall_time_s"][row["run"]] == row["wall_time_s"]
    # A finished study in its folder: nothing to run, no cluster needed.
    again = jourdain.sweep(OSCILLATOR, runs, outputs, scheduler="tcp://127.0.0.1:1", solver=solver,
                           output_dir=tmp_path)
    assert again["worker"].equals(resumed["worker"])
    # Another study in the same folder is refused rather than mixed in.
    with pytest.raises(jourdain.InputError, match="another study"):
        jourdain.sweep(OSCILLATOR, runs, ["mass.x:max"], scheduler=client, solver=solver, output_dir=tmp_path)


def test_a_study_takes_its_runs_as_the_workers_need_them(client, tmp_path):
    """Issue 40, point 11: a study held every point and every row in memory (10^7 points:
    4.3 GB before the first run). It takes its runs from a generator as the workers need
    them, and keeps its rows on disk; resumed, it checks each run against its row there."""
    count, taken = 1200, []

    def runs(changed_at=None):
        for k in range(count):
            taken.append(k)
            yield {"spring.stiffness": 100.0 + k + (0.5 if k == changed_at else 0.0)}

    ahead = []
    frame = jourdain.sweep(OSCILLATOR, runs(), ["mass.x:final"], scheduler=client, solver={"t_end": 0.01},
                           output_dir=tmp_path, progress=lambda done, total: ahead.append((len(taken) - done, total)))
    assert list(frame["spring.stiffness"]) == [100.0 + k for k in range(count)]
    assert (frame["status"] == "finished").all()
    # Taken ahead of the rows done: at most a window of two full tasks a worker waiting,
    # and two tasks a worker out. The count is known once the generator is exhausted.
    assert max(runs_ahead for runs_ahead, _ in ahead) <= 4 * study.TASK_RUNS * 2
    assert ahead[0][1] is None and ahead[-1] == (0, count)
    # Resumed from a fresh generator: only the runs whose rows are missing run again.
    log = tmp_path / "rows.jsonl"
    kept = [line for line in log.read_text().splitlines() if json.loads(line)["run"] % 3]
    log.write_text("\n".join(kept) + "\n")
    taken.clear()
    done = []
    resumed = jourdain.sweep(OSCILLATOR, runs(), ["mass.x:final"], scheduler=client, solver={"t_end": 0.01},
                             output_dir=tmp_path, progress=lambda n, total: done.append(n))
    assert done[-1] == count and len(log.read_text().splitlines()) == count
    assert resumed.drop(columns=["wall_time_s", "worker"]).equals(frame.drop(columns=["wall_time_s", "worker"]))
    # A run whose row in the folder has other values belongs to another study.
    with pytest.raises(jourdain.InputError, match="another study \\(run 5 has other values\\)"):
        jourdain.sweep(OSCILLATOR, runs(changed_at=5), ["mass.x:final"], scheduler="tcp://127.0.0.1:1",
                       solver={"t_end": 0.01}, output_dir=tmp_path)


def test_a_study_folder_in_use_is_refused(client, tmp_path):
    """Issue 40, point 3: two identical sweeps into one folder did all the work twice. A
    study holds its folder as a run does (an advisory lock on .jourdain.lock, which names
    the holder); a second one is refused, exit 2 from the command line."""
    runs = jourdain.grid({"spring.stiffness": [100.0, 200.0, 300.0]})
    refused = []

    def second_study(done, total):
        if refused:
            return
        with pytest.raises(jourdain.InputError) as error:
            jourdain.sweep(OSCILLATOR, runs, scheduler="tcp://127.0.0.1:1", solver={"t_end": 0.1}, output_dir=tmp_path)
        refused.append(str(error.value))
        refused.append(subprocess.run([sys.executable, "-m", "jourdain", "sweep", str(OSCILLATOR), "--param",
                                       "spring.stiffness=100,200,300", "--solver", "t_end=0.1", "--scheduler",
                                       "tcp://127.0.0.1:1", "-o", str(tmp_path)],
                                      capture_output=True, text=True, timeout=120))

    first = jourdain.sweep(OSCILLATOR, runs, scheduler=client, solver={"t_end": 0.1}, output_dir=tmp_path,
                           progress=second_study)
    holder = f"{tmp_path}: the study's folder is in use by another study or run (process {os.getpid()}, since 20"
    assert refused[0].startswith(holder)
    assert refused[1].returncode == 2 and refused[1].stderr.startswith(f"error: {holder}"), refused[1].stderr
    assert "Traceback" not in refused[1].stderr
    assert len((tmp_path / "rows.jsonl").read_text().splitlines()) == 3
    # Released when the study ends: the same study again has nothing left to run.
    again = jourdain.sweep(OSCILLATOR, runs, scheduler="tcp://127.0.0.1:1", solver={"t_end": 0.1}, output_dir=tmp_path)
    assert again["worker"].equals(first["worker"])


def segfault_at_666(result):
    """An output function that crashes its worker process on one value, as a plugin or an
    FMU that segfaults does (it runs in the worker, after the run)."""
    if result.parameters.get("spring.stiffness") == 666.0:
        os.kill(os.getpid(), signal.SIGSEGV)
    return 0.0


def test_a_run_that_kills_its_worker_is_an_error_row_and_the_study_ends(tmp_path):
    """Issue 40, point 5: a study hung for good when all its workers died at once, as a
    run that crashes its worker process makes them: no row, no error row, no end. Runs 0
    and 1, the first task of each of the two workers, crash both at once; run 17 crashes
    its worker later, inside a task of several runs. Each is an error row that says so,
    the other runs of their tasks finish, and the study ends (its local cluster restarts
    the workers)."""
    runs = [{"spring.stiffness": 666.0 if k in (0, 1, 17) else 100.0 + k} for k in range(24)]
    frame = jourdain.sweep(OSCILLATOR, runs, [segfault_at_666], workers=2, solver={"t_end": 0.1},
                           output_dir=tmp_path, quiet=True)
    crashed = frame[frame["status"] != "finished"]
    assert list(crashed["run"]) == [0, 1, 17]
    assert (crashed["status"] == "error").all()
    assert crashed["error"].str.startswith("worker process died while running this point, on tcp://").all()
    assert sorted(json.loads(line)["run"] for line in (tmp_path / "rows.jsonl").read_text().splitlines()) == \
        list(range(24))


def close_worker_for_good_at_555(result):
    """An output function that closes its worker and the worker's nanny, as dask itself
    does to a worker it cannot fetch a result from: the cluster does not restart it."""
    if result.parameters.get("spring.stiffness") == 555.0:
        from distributed import get_worker
        worker = get_worker()
        worker.loop.add_callback(worker.close, nanny=True, reason="jourdain test: closed for good")
    return 0.0


def test_a_study_whose_workers_are_closed_for_good_starts_new_ones(tmp_path):
    """A study on a loaded machine waited for good: dask had closed the nannies of both
    its workers (one 15 s after its worker died, while it restarted it after another
    crash), and no worker was left to run the rest. Runs 0 and 1, the first of each
    worker, close their worker and its nanny: the study starts new ones and ends, the
    other runs finished."""
    runs = [{"spring.stiffness": 555.0 if k in (0, 1) else 100.0 + k} for k in range(8)]
    frame = jourdain.sweep(OSCILLATOR, runs, [close_worker_for_good_at_555], workers=2, solver={"t_end": 0.1},
                           output_dir=tmp_path, quiet=True)
    assert list(frame["run"]) == list(range(8))
    assert (frame[frame["run"] >= 2]["status"] == "finished").all()


def test_bad_study_input_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(jourdain.InputError, match="spring.stifness"):
        jourdain.sweep(OSCILLATOR, [{"spring.stifness": 1.0}], scheduler="tcp://127.0.0.1:1")
    with pytest.raises(jourdain.InputError, match="no_such"):
        jourdain.sweep(NETLISTS / "no_such.json", [{}], scheduler="tcp://127.0.0.1:1")


@pytest.mark.parametrize("arguments, said", [
    (["--output", "mass.x:median"], "unknown statistic 'median'"),
    (["--output", "nope.x"], "no recorded variable 'nope.x'"),
    (["--solver", "bogus=1"], "solver 'bogus': no method has this setting"),
    (["--solver", "method=rk5"], "unknown method 'rk5'"),
    (["--t-end", "nan"], "--t-end nan: not a positive, finite time"),
    (["--param", "spring.stiffness=1e400"], "'1e400' is not a finite number"),
    (["--param", "mass.mass=1,2"], "--param mass.mass: given twice"),
    (["--lhs", "4", "--param", "damper.damping=uniform:2:1"], "needs LOW < HIGH"),
    (["-o", ""], "output folder is not named"),
    (["-o", "FILE"], "is not a folder"),
    (["-o", "/proc/jourdain_study"], "cannot create the study's folder"),
    (["NETLIST", "/dev/zero"], "is not a regular file"),
])
def test_bad_study_arguments_exit_2_before_any_cluster(arguments, said, tmp_path):
    """Issue 40, point 13: typos in outputs passed silently with an empty column; bad
    solver settings, t_end and values started the cluster and failed every row (exit 1);
    a repeated --param silently won; bad folders ended in tracebacks. Each is refused,
    exit 2 with one line, before a cluster starts (the scheduler named cannot be reached,
    so a study that started one would fail otherwise)."""
    (tmp_path / "FILE").write_text("not a folder\n")
    command = [sys.executable, "-m", "jourdain", "sweep", str(OSCILLATOR), "--param", "mass.mass=1,2",
               "--scheduler", "tcp://127.0.0.1:1", "-o", str(tmp_path / "study")]
    if arguments[0] == "NETLIST":  # another netlist in the place of the oscillator
        command[4], arguments = arguments[1], arguments[2:]
    command += [a if a != "FILE" else str(tmp_path / "FILE") for a in arguments]
    if "--lhs" in arguments:
        command.remove("--param"), command.remove("mass.mass=1,2")
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr
    assert "Traceback" not in done.stderr


def test_study_command_line(tmp_path):
    out = tmp_path / "study"
    command = [sys.executable, "-m", "jourdain", "sweep", str(OSCILLATOR), "--param", "spring.stiffness=100:400:3 N/m",
               "--param", "mass.mass=1 kg,2 kg", "--output", "mass.x:min", "--output", "mass.x:tmin",
               "--solver", "t_end=1", "--workers", "2", "--progress-lines", "-o", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "6 runs, 0 not finished" in done.stdout
    # --progress-lines (what the studio's progress bar reads): runs done of the total, up to all.
    counts = [tuple(map(int, line.split()[1:])) for line in done.stderr.splitlines() if line.startswith("progress ")]
    assert counts and counts[-1] == (6, 6) and all(total == 6 for _, total in counts)
    assert [d for d, _ in counts] == sorted(d for d, _ in counts)
    frame = pd.read_csv(out / "sweep.csv")
    assert list(frame["spring.stiffness"]) == [100.0, 100.0, 250.0, 250.0, 400.0, 400.0]
    assert list(frame["mass.mass"]) == [1.0, 2.0] * 3
    assert (frame["status"] == "finished").all()
    assert (out / "sweep.html").is_file()
    bad = subprocess.run(command[:5] + ["--param", "spring.stiffness=1:2", "-o", str(out / "bad")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "error:" in bad.stderr
    # `jourdain sweep` is the same command (-q before it is passed on: nothing on stdout).
    again = subprocess.run([JOURDAIN_EXE, "-q"] + command[3:-1] + [str(tmp_path / "from_jourdain")],
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert again.stdout == ""
    assert pd.read_csv(tmp_path / "from_jourdain" / "sweep.csv").drop(columns=["wall_time_s", "worker"]).equals(
        frame.drop(columns=["wall_time_s", "worker"]))


def test_ctrl_c_stops_a_study_cleanly(tmp_path):
    """Ctrl-C in a terminal signals the study's whole process group, its local cluster's
    workers too: the study stops with one line and exit 130, no traceback and nothing from
    dask, the rows done kept whole, and no process left behind."""
    out = tmp_path / "study"
    slow = {"t_end": 1000, "rtol": 1e-11, "atol": 1e-14, "output_interval": 1, "max_step": 1e-3}  # ~0.3 s a run
    command = ["-m", "jourdain", "sweep", str(OSCILLATOR), "--param", "spring.stiffness=100:400:40",
               "--output", "mass.x:final", "--workers", "2", "-o", str(out), "-q"]
    command += [f"--solver={key}={value}" for key, value in slow.items()]
    # As a terminal starts a command: its own process group, SIGINT not ignored (whatever
    # this process was started with; a signal ignored at start stays ignored, as it should).
    shim = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
            "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])")
    study = subprocess.Popen([sys.executable, "-c", shim, *command], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    log = out / "rows.jsonl"
    try:
        deadline = time.monotonic() + 120
        while not (log.exists() and log.read_text().count("\n") >= 1):
            assert study.poll() is None and time.monotonic() < deadline, study.communicate()
            time.sleep(0.05)
        os.killpg(study.pid, signal.SIGINT)
        stdout, stderr = study.communicate(timeout=60)
    finally:
        if study.poll() is None:
            os.killpg(study.pid, signal.SIGKILL)
            study.wait()
    assert study.returncode == 130, stderr
    assert stdout == "" and "Traceback" not in stderr
    rows = [json.loads(line) for line in log.read_text().splitlines()]  # whole rows only
    assert 1 <= len(rows) < 40 and all(row["status"] == "finished" for row in rows)
    assert stderr.strip().splitlines() == [
        f"error: study interrupted by signal 2 (Interrupt): {len(rows)} of 40 runs done, kept in {out}/rows.jsonl; "
        f"the same command runs the others"]
    # The cluster's processes (its workers) are gone with the study.
    deadline = time.monotonic() + 10
    while True:
        try:
            os.killpg(study.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "processes of the study outlive it"
        time.sleep(0.05)


def test_a_state_in_a_study_sets_its_initial_value(client):
    runs = jourdain.zipped({"mass.x": ["50 mm", "-20 mm"], "spring.stiffness": [100.0, 200.0]})
    frame = jourdain.sweep(OSCILLATOR, runs, ["mass.x:initial", "spring.force:initial"], scheduler=client,
                           solver={"t_end": 0.1})
    assert list(frame["mass.x:initial"]) == [0.05, -0.02]
    # The spring's tension k x at the start: the state and the parameter both reached the run.
    assert list(frame["spring.force:initial"]) == pytest.approx([5.0, -4.0], rel=1e-12)
    assert frame.attrs["units"]["mass.x"] == "mm"


# ---- Where the runs of a study go (study._Placement), on a simulated cluster ----

def simulated_study(runs, run_time, latency, join_at=None):
    """Plays _dispatch's placement against workers that run their tasks one after another:
    a task reaches its worker `latency` after it is placed and its rows come back
    `latency` after it ends; worker w's runs take run_time[w] seconds each, and a worker
    in join_at is known to the study from that time on. Returns, per worker, the runs it
    made and when it finished."""
    plan = study._Placement(runs)
    join_at = join_at or {}
    free = {w: 0.0 for w in run_time}   # when each worker is done with what it was given
    made = {w: 0 for w in run_time}
    returns = []                         # (time the rows arrive, worker, runs, placed at, token)
    left = [runs]

    def submit(w, size, now):
        size = min(size, left[0])
        left[0] -= size
        token = plan.placed(w, size, now)
        free[w] = max(free[w], now + latency) + size * run_time[w]
        made[w] += size
        returns.append((free[w] + latency, w, size, token))

    start = [w for w in run_time if w not in join_at]
    for w in start:
        plan.join(w)
    for size in (1, 2):
        for w in start:
            if left[0]:
                submit(w, size, 0.0)
    late = sorted((t, w) for w, t in join_at.items())
    while returns:
        returns.sort(key=lambda item: item[0])
        now, w, size, token = returns.pop(0)
        while late and late[0][0] <= now:  # _dispatch looks for new workers as rows come in
            plan.join(late[0][1])
            if size := plan.next_task(late[0][1], now):
                submit(late[0][1], size, now)
            late.pop(0)
        plan.returned(w, size, [run_time[w]] * size, *token, now)
        while size := plan.next_task(w, now):
            submit(w, size, now)
    assert left[0] == 0 and sum(made.values()) == runs
    return made, free


def test_a_short_study_is_split_so_that_the_workers_end_together():
    # 64 runs of 7 ms on two workers, 3 ms each way through the scheduler (the shape of
    # tests/bench/bench_sweep.py): a split by counts alone gives 33/31, two runs apart.
    made, free = simulated_study(64, {"a": 0.007, "b": 0.007}, 0.003)
    assert made == {"a": 32, "b": 32}
    # Three workers: the ends within one run of each other.
    made, free = simulated_study(100, {"a": 0.007, "b": 0.007, "c": 0.007}, 0.003)
    assert max(free.values()) - min(free.values()) <= 0.007 + 1e-12


def test_a_slower_worker_gets_fewer_runs_once_its_speed_is_known():
    # Runs of 0.1 s and 0.25 s: tasks of at most TASK_SECONDS, so each worker reports
    # often and its own run time (after 8 runs) sizes its later tasks. Ending together
    # means splitting in proportion to the speeds, 5 : 2, and the ends stay within a run
    # of the slow worker.
    made, free = simulated_study(140, {"fast": 0.1, "slow": 0.25}, 0.003)
    assert abs(made["fast"] - 100) <= 3 and abs(made["slow"] - 40) <= 2
    assert max(free.values()) - min(free.values()) <= 0.25


def test_a_worker_that_joins_late_gets_its_share():
    # One worker, then a second one 2 s into a study of 10 s of runs: they end together.
    made, free = simulated_study(100, {"a": 0.1, "b": 0.1}, 0.003, join_at={"b": 2.0})
    assert made["b"] >= 35
    assert max(free.values()) - min(free.values()) <= 0.1 + 1e-12


def test_no_task_when_nothing_is_left():
    # A worker that joins (or returns) once every run is placed gets no task: an empty one
    # would have no run to name its key after.
    plan = study._Placement(1)
    plan.join("a")
    plan.placed("a", 1, 0.0)
    plan.join("b")
    assert plan.next_task("b", 0.0) == 0
    assert plan.next_task("a", 0.0) == 0
