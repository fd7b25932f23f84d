"""A study on a real dask cluster, started here as separate processes (a scheduler and two
workers on 127.0.0.1, as on a cluster's nodes): it runs there, survives a worker killed in
the middle (a sweep and a design study alike), and a study whose own process is killed
resumes without rerunning rows."""

import json
import signal
import subprocess
import sys
import threading
import time

import pytest

import jourdain
from conftest import NETLISTS

OSCILLATOR = NETLISTS / "mass_spring_damper.json"
# Runs long enough (about half a second each) that a study is still going when a test
# interrupts it or a late worker joins: a million steps of at most 1 ms (the step size
# alone would grow as the oscillation dies out, and the run would take milliseconds).
SLOW = {"t_end": 1000, "rtol": 1e-11, "atol": 1e-14, "output_interval": 1, "max_step": 1e-3}
STIFFNESS = {"spring.stiffness": [100.0 + 50.0 * i for i in range(8)]}


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout} s for {what}")
        time.sleep(0.05)


def start_worker(address: str, name: str) -> subprocess.Popen:
    """A worker process without a nanny (killed, it stays dead)."""
    return subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                             "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--name", name],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.fixture
def scheduler(tmp_path):
    """A scheduler process, its address and the list of processes to stop at the end."""
    scheduler_file = tmp_path / "scheduler.json"
    processes = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                   "--port", "0", "--no-dashboard", "--scheduler-file", str(scheduler_file)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        wait_for(lambda: scheduler_file.exists() and scheduler_file.stat().st_size > 0, 60, "the scheduler")
        yield json.loads(scheduler_file.read_text())["address"], processes
    finally:
        for p in reversed(processes):
            p.kill()
            p.wait()


@pytest.fixture
def cluster(scheduler):
    """A scheduler and two worker processes."""
    address, processes = scheduler
    workers = [start_worker(address, f"w{i}") for i in range(2)]
    processes += workers
    from dask.distributed import Client
    with Client(address) as client:
        client.wait_for_workers(2, timeout=60)
    return address, workers


def test_sweep_on_a_cluster_of_separate_processes(cluster, tmp_path):
    address, workers = cluster
    frame = jourdain.sweep(OSCILLATOR, jourdain.grid(STIFFNESS), ["mass.x:final", "mass.x:min"], scheduler=address,
                           solver=SLOW, output_dir=tmp_path / "study")
    assert (frame["status"] == "finished").all()
    # The runs ran in the worker processes, not here.
    pids = {int(w.rsplit(":", 1)[1]) for w in frame["worker"]}
    assert pids <= {p.pid for p in workers} and len(pids) == 2
    # The same runs here, one after another, give the same numbers.
    model = jourdain.load(OSCILLATOR)
    for i, k in enumerate(STIFFNESS["spring.stiffness"][:2]):
        assert frame["mass.x:min"][i] == float(min(model.run({"spring.stiffness": k}, solver=SLOW)["mass.x"]))


def test_a_worker_killed_in_the_middle_loses_no_row(cluster, tmp_path):
    address, workers = cluster
    victim = workers[1]

    def kill_after_first_row(done, total):
        if done == 1:
            victim.send_signal(signal.SIGKILL)

    runs = jourdain.grid({"spring.stiffness": [100.0 + 25.0 * i for i in range(12)]})
    frame = jourdain.sweep(OSCILLATOR, runs, ["mass.x:final"], scheduler=address, solver=SLOW,
                           output_dir=tmp_path / "study", progress=kill_after_first_row)
    victim.wait(timeout=30)
    assert victim.returncode == -signal.SIGKILL
    assert list(frame["run"]) == list(range(12))
    assert (frame["status"] == "finished").all(), frame[["status", "error"]]
    # The victim finished at most the rows it had done before it died (it held about half
    # of the runs then); the survivor ran the rest, the victim's included.
    assert sum(w.endswith(f":{victim.pid}") for w in frame["worker"]) <= 2
    assert sum(w.endswith(f":{workers[0].pid}") for w in frame["worker"]) >= 10


def test_a_killed_study_resumes_where_it_stopped(cluster, tmp_path):
    address, _ = cluster
    out = tmp_path / "study"
    command = [sys.executable, "-m", "jourdain", "sweep", str(OSCILLATOR), "--param", "spring.stiffness=100:400:10",
               "--output", "mass.x:final", "--scheduler", address, "-o", str(out), "-q"]
    command += [f"--solver={key}={value}" for key, value in SLOW.items()]
    log = out / "rows.jsonl"
    study = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: log.exists() and len(log.read_text().splitlines()) >= 2, 120, "two rows")
    finally:
        study.send_signal(signal.SIGKILL)
        study.wait()
    before = log.read_text().splitlines()
    assert 2 <= len(before) < 10
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    after = log.read_text().splitlines()
    # The rows kept are untouched and not run again; the others ran once each.
    assert after[:len(before)] == before
    assert sorted(json.loads(line)["run"] for line in after) == list(range(10))


def test_workers_that_join_after_the_study_started_get_work(scheduler):
    # As on a batch system, whose worker jobs start when the queue lets them: the study
    # waits for the first worker and gives work to the second when it comes.
    address, processes = scheduler
    workers = []

    def start_workers():
        for i in range(2):
            time.sleep(1.0)
            workers.append(start_worker(address, f"late{i}"))
            processes.append(workers[-1])

    starter = threading.Thread(target=start_workers)
    starter.start()
    try:
        frame = jourdain.sweep(OSCILLATOR, jourdain.grid(STIFFNESS), ["mass.x:final"], scheduler=address,
                               solver=SLOW)
    finally:
        starter.join()
    assert (frame["status"] == "finished").all(), frame[["status", "error"]]
    pids = {int(w.rsplit(":", 1)[1]) for w in frame["worker"]}
    assert pids == {p.pid for p in workers}


def test_a_design_study_loses_no_evaluation_to_a_killed_worker(cluster, tmp_path):
    # Differential evolution over the damping: generations of 8 points, each run in
    # parallel on the two workers; one is killed once three evaluations are in.
    address, workers = cluster
    victim = workers[1]
    quick = {**SLOW, "t_end": 200}  # runs of about a tenth of a second
    arguments = dict(method="differential-evolution", seed=5, population=8, generations=2, solver=quick,
                     scheduler=address, quiet=True)

    killed_at = []

    def kill_after_third(done):
        if done >= 3 and victim.poll() is None:
            victim.send_signal(signal.SIGKILL)
            killed_at.append(done)

    hit = jourdain.optimize(OSCILLATOR, ["damper.damping=1:40"], "mass.x:min", output_dir=tmp_path / "hit",
                            progress=kill_after_third, **arguments)
    victim.wait(timeout=30)
    assert victim.returncode == -signal.SIGKILL
    assert len(hit.evaluations) == 8 * 3 and all(e["status"] == "finished" for e in hit.evaluations)
    # Killed with most of the study to come, which the survivor ran.
    assert killed_at[0] < 8
    ran_by = [json.loads(line)["worker"] for line in (tmp_path / "hit" / "rows.jsonl").read_text().splitlines()]
    assert sum(w.endswith(f":{workers[0].pid}") for w in ran_by) >= 24 - killed_at[0] - 2
    # The same study on the surviving worker alone, uninterrupted: the same evaluations,
    # the same result.
    calm = jourdain.optimize(OSCILLATOR, ["damper.damping=1:40"], "mass.x:min", output_dir=tmp_path / "calm",
                             **arguments)
    assert [e["values"] for e in calm.evaluations] == [e["values"] for e in hit.evaluations]
    assert [e["objectives"] for e in calm.evaluations] == [e["objectives"] for e in hit.evaluations]
    assert calm.best == hit.best


def test_a_killed_design_study_resumes_to_the_result_of_an_uninterrupted_one(cluster, tmp_path):
    address, _ = cluster
    quick = {**SLOW, "t_end": 200}
    command = [sys.executable, "-m", "jourdain", "optimize", str(OSCILLATOR), "--param", "damper.damping=1:40",
               "--objective", "mass.x:min", "--method", "differential-evolution", "--seed", "6", "--population", "8",
               "--generations", "2", "--scheduler", address, "--no-reports", "-q"]
    command += [f"--solver={key}={value}" for key, value in quick.items()]
    log = tmp_path / "killed" / "rows.jsonl"
    study = subprocess.Popen(command + ["-o", str(tmp_path / "killed")], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    try:
        wait_for(lambda: log.exists() and len(log.read_text().splitlines()) >= 3, 120, "three evaluations")
    finally:
        study.send_signal(signal.SIGKILL)
        study.wait()
    before = log.read_text().splitlines()
    assert 3 <= len(before) < 24
    resumed = subprocess.run(command + ["-o", str(tmp_path / "killed")], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    whole = subprocess.run(command + ["-o", str(tmp_path / "whole")], capture_output=True, text=True, timeout=300)
    assert whole.returncode == 0, whole.stderr
    killed = json.loads((tmp_path / "killed" / "summary.json").read_text())
    uninterrupted = json.loads((tmp_path / "whole" / "summary.json").read_text())
    # The rows kept were not run again; the result is the uninterrupted study's.
    assert log.read_text().splitlines()[:len(before)] == before
    assert killed["evaluations_run"] <= 24 - len(before)
    assert killed["best"] == uninterrupted["best"]
    assert [e["values"] for e in killed["evaluations"]] == [e["values"] for e in uninterrupted["evaluations"]]
