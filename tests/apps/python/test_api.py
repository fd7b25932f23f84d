"""The Python API against the command line and closed forms: the same numbers, the same
messages, and one model running in several threads at once."""

import json
import os
import threading

import numpy as np
import pandas as pd
import pytest

import jourdain
from conftest import NETLISTS, run_cli


@pytest.mark.parametrize("netlist", ["mass_spring_damper.json", "position_servo.json", "four_bar.json"])
def test_results_equal_the_command_line_bit_for_bit(netlist, tmp_path):
    cli = run_cli("run", "-q", "--no-report", str(NETLISTS / netlist), "-o", str(tmp_path / "cli"))
    assert cli.returncode == 0, cli.stderr
    # results.csv prints every double with 17 significant digits: read back, they are the
    # run's own numbers, so the comparison is exact.
    csv = pd.read_csv(tmp_path / "cli" / "results.csv", float_precision="round_trip")
    result = jourdain.load(NETLISTS / netlist).run()
    # The file's header is "name [unit]".
    assert [c.rsplit(" [", 1)[0] for c in csv.columns] == result.columns
    assert csv.columns[1] == f"{result.columns[1]} [{result.units[result.columns[1]] or '1'}]"
    assert result.data.shape == csv.shape
    assert np.array_equal(result.data, csv.to_numpy(), equal_nan=True)
    summary = json.loads((tmp_path / "cli" / "summary.json").read_text())
    assert result.summary["final_values"] == summary["final_values"]
    assert result.summary["statistics"] == summary["statistics"]


def test_run_with_units_initial_values_and_solver_settings():
    model = jourdain.load(NETLISTS / "mass_spring_damper.json")
    assert model.parameters["spring.stiffness"].unit == "N/m"
    assert model.parameters["spring.stiffness"].default == 100.0
    assert "mass.x" in model.states and model.variables["mass.x"] == "m"
    # k = 400 N/m, x0 = 20 mm, no damping: x(t) = x0 cos(ωt), ω = 20 rad/s.
    result = model.run({"spring.stiffness": "0.4 kN/m", "damper.damping": 0}, initial={"mass.x": "20 mm"},
                       solver={"rtol": 1e-10, "atol": 1e-13, "t_end": 1.0})
    t = result.time
    assert t[-1] == pytest.approx(1.0, abs=1e-12)
    # rtol 1e-10 on a 1 s oscillation: the error stays near 1e-10 of the amplitude.
    assert np.max(np.abs(result["mass.x"] - 0.02 * np.cos(20.0 * t))) < 1e-9
    frame = result.to_pandas()
    assert frame.index.name == "time" and list(frame.columns) == result.columns[1:]
    assert result.status == "finished" and result.finished and result.warnings == []
    assert result.summary["solver"]["rtol"] == 1e-10
    # The model itself is untouched: the next run has the netlist's values.
    again = model.run(solver={"t_end": 0.5})
    assert again["mass.x"][0] == pytest.approx(0.1, abs=0)


def test_component_types_describe_and_solvers():
    library = jourdain.Library()
    names = [t["name"] for t in library.types()]
    assert "hydraulic.relief_valve" in names and names == sorted(names)
    relief = library.describe("hydraulic.relief_valve")
    assert any(p["name"] == "cracking_pressure" for p in relief["parameters"])
    with pytest.raises(jourdain.InputError, match="did you mean"):
        library.describe("hydraulic.relief_valv")
    assert "rk4" in json.dumps(library.solvers())


def test_load_from_a_dict_and_from_json_text():
    document = json.loads((NETLISTS / "mass_spring_damper.json").read_text())
    from_dict = jourdain.load(document, file=NETLISTS / "mass_spring_damper.json").run(solver={"t_end": 0.2})
    from_text = jourdain.load(json.dumps(document)).run(solver={"t_end": 0.2})
    assert np.array_equal(from_dict.data, from_text.data)


@pytest.mark.parametrize("mutate, pattern", [
    (lambda d: d["components"]["spring"]["params"].update(stiffness="100 N/mm/s"), r"/components/spring/params/stiffness"),
    (lambda d: d["connections"].append(["mass.q", "spring.a"]), r"mass.*port|port.*'q'"),
    (lambda d: d["components"].update(extra={"type": "mechanical1d.spirng"}), r"did you mean"),
    (lambda d: d.update(solvr={}), r"solvr"),
])
def test_bad_netlists_raise_input_errors_naming_the_place(mutate, pattern, tmp_path):
    document = json.loads((NETLISTS / "mass_spring_damper.json").read_text())
    mutate(document)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(document))
    with pytest.raises(jourdain.InputError, match=pattern) as error:
        jourdain.load(path)
    assert isinstance(error.value, ValueError)
    assert str(path) in str(error.value)
    # The command line says the same.
    cli = run_cli("check", str(path))
    assert cli.returncode == 2 and str(error.value) in cli.stderr


def test_bad_run_values_raise_input_errors():
    model = jourdain.load(NETLISTS / "mass_spring_damper.json")
    with pytest.raises(jourdain.InputError, match=r"spring.*stiffness.*unit|unknown unit"):
        model.run({"spring.stiffness": "100 bar"})
    with pytest.raises(jourdain.InputError, match=r"did you mean|spring.stiffness"):
        model.run({"spring.stifness": 1.0})
    with pytest.raises(jourdain.InputError, match=r"range"):
        model.run({"mass.mass": -1})
    with pytest.raises(jourdain.InputError, match=r"no continuous state"):
        model.run(initial={"mass.y": 0.0})
    with pytest.raises(jourdain.InputError, match=r"method"):
        model.run(solver={"method": "rk5"})
    with pytest.raises(jourdain.InputError, match="no_such_file"):
        jourdain.load(NETLISTS / "no_such_file.json")


def test_values_python_can_hold_and_json_cannot_are_named():
    """Issue 40, point 14: NaN from Python raised a RuntimeError quoting the JSON parser and
    naming nothing; wrong types gave type errors from deep inside or blamed --t-end."""
    model = jourdain.load(NETLISTS / "mass_spring_damper.json")
    with pytest.raises(jourdain.InputError, match=r"parameter 'spring.stiffness': nan is not a finite number"):
        model.run({"spring.stiffness": float("nan")})
    with pytest.raises(jourdain.InputError, match=r"initial value 'mass.x': inf is not a finite number"):
        model.run(initial={"mass.x": np.inf})
    with pytest.raises(jourdain.InputError, match=r"solver 'rtol': nan is not a finite number"):
        model.run(solver={"rtol": np.float64("nan")})
    with pytest.raises(jourdain.InputError, match=r"t_end: nan is not a finite time"):
        model.run(t_end=float("nan"))
    with pytest.raises(TypeError, match=r"solver must be a mapping"):
        model.run(solver=[1])
    with pytest.raises(TypeError, match=r"parameter values must be a mapping"):
        model.run([("spring.stiffness", 1.0)])
    with pytest.raises(jourdain.InputError, match=r"max_components must be 0 \(no limit\) or more, not -1"):
        jourdain.load(NETLISTS / "mass_spring_damper.json", max_components=-1)
    with pytest.raises(jourdain.InputError, match=r"NaN or infinity"):
        jourdain.load({"components": {"m": {"type": "mechanical1d.mass", "params": {"mass": float("nan")}}}})
    with pytest.raises(jourdain.InputError, match=r"larger than 64 MiB"):
        jourdain.load('{"name": "' + "x" * (65 << 20) + '"}')
    # JSON text as bytes is read as text.
    assert "m.x" in jourdain.load(b'{"components": {"m": {"type": "mechanical1d.mass"}}}').states


def test_a_failed_run_carries_its_partial_result(tmp_path):
    model = jourdain.load(NETLISTS / "mass_spring_damper.json")
    with pytest.raises(jourdain.SimulationFailed, match="max_steps") as failure:
        model.run(solver={"max_steps": 50}, output_dir=tmp_path)
    partial = failure.value.result
    assert isinstance(failure.value, jourdain.SimulationError)
    assert partial.status == "failed" and not partial.finished
    assert 0 < len(partial.time) < 501 and partial.time[-1] < 5.0
    assert partial["mass.x"][0] == 0.1
    assert json.loads((tmp_path / "summary.json").read_text())["status"] == "failed"
    # check=False returns it instead.
    assert model.run(solver={"max_steps": 50}, check=False).status == "failed"


def test_strict_runs_fail_on_accuracy_warnings_and_keep_their_result():
    # The pendulum on rk4 at a 0.1 s step: each projection after a step moves the bob by
    # millimetres, beyond world.constraints.tolerance, so the results are not vouched for.
    model = jourdain.load(NETLISTS / "pendulum.json")
    coarse = {"method": "rk4", "step": 0.1, "output_interval": 0.1, "t_end": 1.0}
    result = model.run(solver=coarse)
    assert result.finished and len(result.accuracy_warnings) == 1
    assert result.accuracy_warnings[0] in result.warnings
    assert "another assembly branch" in result.accuracy_warnings[0]
    with pytest.raises(jourdain.SimulationFailed, match="strict run") as failure:
        model.run(solver=coarse, strict=True)
    assert not failure.value.result.finished
    assert len(failure.value.result.time) == len(result.time)  # everything kept
    assert failure.value.result.summary["strict"] is True
    # A run within the tolerance is vouched for, strict or not.
    assert model.run(solver={"t_end": 0.5}, strict=True).accuracy_warnings == []


def test_output_folder_gets_the_command_lines_files(tmp_path):
    jourdain.load(NETLISTS / "mass_spring_damper.json").run(solver={"t_end": 0.3}, output_dir=tmp_path)
    for name in ("results.csv", "summary.json", "report.html"):
        assert (tmp_path / name).is_file()


def test_one_model_in_four_threads_equals_four_serial_runs():
    model = jourdain.load(NETLISTS / "position_servo.json")
    gains = [0.01, 0.02, 0.0264, 0.04]
    serial = [model.run({"pi.kp": k}) for k in gains]
    parallel = [None] * len(gains)

    def worker(i):
        parallel[i] = model.run({"pi.kp": gains[i]})

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(gains))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for a, b in zip(serial, parallel):
        assert np.array_equal(a.data, b.data)
    # Different gains made different runs (the threads did not share one context).
    assert not np.array_equal(serial[0]["load.x"], serial[3]["load.x"])


def test_the_gil_is_released_while_a_run_integrates():
    model = jourdain.load(NETLISTS / "mass_spring_damper.json")
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        # 2000 s of oscillation at rtol 1e-11: about half a second of integration.
        result = model.run({"damper.damping": 0},
                           solver={"t_end": 2000, "rtol": 1e-11, "atol": 1e-14, "output_interval": 1})
    finally:
        done.set()
        ticker.join()
    # The ticker wakes every millisecond; blocked by the GIL during the run it would count
    # about 1, free it counts about one per millisecond of the run.
    assert result.wall_time_s > 0.1
    assert len(ticks) >= 0.25 * result.wall_time_s * 1000


def test_linear_model_of_the_oscillator_is_the_closed_form():
    model = jourdain.load(NETLISTS / "mass_spring_damper.json")
    linear = model.linearize("initial", inputs=["spring.stiffness"], outputs=["mass.x", "spring.force"])
    # States (x, v): A = [[0, 1], [-k/m, -c/m]] with k = 100 N/m, c = 2 N·s/m, m = 1 kg.
    # Central differences with step ε^(1/3) on a linear model: exact to rounding (~1e-9).
    assert linear.states == ["mass.x", "mass.v"]
    np.testing.assert_allclose(linear.A, [[0, 1], [-100, -2]], atol=1e-6)
    # u = k: ∂v̇/∂k = -x/m = -0.1 at the initial x = 0.1 m.
    np.testing.assert_allclose(linear.B, [[0], [-0.1]], atol=1e-6)
    # spring.force is the spring's tension, k (x_b − x_a − free_length) = k x.
    np.testing.assert_allclose(linear.C, [[1, 0], [100, 0]], atol=1e-6)
    assert linear.inputs == ["spring.stiffness"] and linear.outputs == ["mass.x", "spring.force"]
    assert sorted(np.abs(linear.eigenvalues)) == pytest.approx([10.0, 10.0], rel=1e-7)
    assert linear.modes[0]["damping_ratio"] == pytest.approx(0.1, rel=1e-7)
    assert linear.response.shape == (2, 1, len(linear.frequencies_hz))


def test_plugins_add_component_types():
    library = jourdain.Library(plugins=[os.environ["JOURDAIN_TINY_PLUGIN"]])
    ramp = [t for t in library.types() if t["name"] == "tiny.ramp"]
    assert ramp and ramp[0]["origin"] == os.environ["JOURDAIN_TINY_PLUGIN"]
    netlist = {"components": {"ramp": {"type": "tiny.ramp", "params": {"slope": "2 1/s"}}},
               "solver": {"method": "rk4", "t_end": 1.0, "output_interval": 0.25}, "record": ["ramp.out"]}
    result = library.load(netlist).run()
    # y = slope t, exactly at the output times.
    np.testing.assert_array_equal(result["ramp.out"], 2.0 * result.time)
    # Without the plugin the type is unknown; a plugin built for another ABI is refused.
    with pytest.raises(jourdain.InputError, match="tiny.ramp"):
        jourdain.load(netlist)
    with pytest.raises((jourdain.InputError, jourdain.Error), match="abi999"):
        jourdain.Library(plugins=[os.environ["JOURDAIN_TINY_PLUGIN_ABI999"]])


def test_a_netlists_plugins_and_subsystem_files_need_consent(tmp_path):
    # As on the command line (README, "Running netlists from others"): a netlist's plugins
    # run code, its subsystem files could be any file of the user's.
    plugin = tmp_path / "tiny.so"
    plugin.write_bytes(open(os.environ["JOURDAIN_TINY_PLUGIN"], "rb").read())
    netlist = {"plugins": ["tiny.so"], "components": {"ramp": {"type": "tiny.ramp"}},
               "solver": {"method": "rk4", "t_end": 1.0, "output_interval": 0.5}}
    with pytest.raises(jourdain.InputError, match="allow_plugins=True"):
        jourdain.load(netlist, file=tmp_path / "net.json")
    assert "ramp.out" in jourdain.load(netlist, file=tmp_path / "net.json", allow_plugins=True).variables

    partslib = tmp_path / "partslib"
    partslib.mkdir()
    (partslib / "weight.json").write_text('{"components": {"m": {"type": "mechanical1d.mass"}}}')
    (tmp_path / "case").mkdir()
    uses = {"subsystems": {"w": "../partslib/weight.json"}, "components": {"a": {"type": "w"}}}
    with pytest.raises(jourdain.InputError, match="lies outside the folders"):
        jourdain.load(uses, file=tmp_path / "case" / "net.json")
    assert jourdain.load(uses, file=tmp_path / "case" / "net.json", library_folders=[partslib]).states
    with pytest.raises(jourdain.InputError, match="more than 1 components"):
        jourdain.load(uses, file=tmp_path / "case" / "net.json", allow_any_path=True, max_components=1)


def test_ctrl_c_stops_a_run_from_python_and_keeps_its_result():
    """Issue 40, point 4: Ctrl-C could not interrupt a Python run (the KeyboardInterrupt came
    only when the run ended, 5.2 s after the signal), and a finished run's result was lost
    to it. The run checks for signals as the command line does: it stops cleanly, and
    RunInterrupted (a KeyboardInterrupt) carries what it computed."""
    import signal

    model = jourdain.load(NETLISTS / "mass_spring_damper.json")
    # Ten million rk4 steps: many seconds unless the signal stops it.
    solver = {"method": "rk4", "step": 1e-5, "output_interval": 0.5}
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(jourdain.RunInterrupted) as stopped:
            model.run(solver=solver, t_end=100.0)
    finally:
        timer.cancel()
    result = stopped.value.result
    assert isinstance(stopped.value, KeyboardInterrupt)
    assert not result.finished
    assert result.summary["status"] == "interrupted"
    assert 0.0 < result.time[-1] < 100.0
    assert len(result.time) >= 2  # the rows up to the signal


def test_check_lists_every_problem_and_format_writes_canonical_text(tmp_path):
    """Issue 32: the check and the save of an editor, from Python."""
    netlist = {"components": {"m": {"type": "mechanical1d.mass", "params": {"mass": "2 kgg"}},
                              "s": {"type": "mechanical1d.sprng"}, "w": {"type": "mechanical1d.fixed"}},
               "connections": [["m.p", "s.a"], ["w.q", "w.p"]]}
    problems = jourdain.check(netlist, file="drawn.json")
    assert [(p["severity"], p["path"]) for p in problems] == [
        ("error", "/components/m/params/mass"), ("error", "/components/s/type"), ("error", "/connections/1")]
    assert problems[1]["suggestion"] == "mechanical1d.spring"
    assert jourdain.check(NETLISTS / "mass_spring_damper.json") == []

    # A configured type's ports follow its parameters.
    ports = jourdain.Library().describe("hydraulic.volume", {"ports": 3})["ports"]
    assert [p["name"] for p in ports] == ["p1", "p2", "p3"]

    messy = tmp_path / "messy.json"
    messy.write_text('{"components":{"m":{"type":"mechanical1d.mass","params":{"mass":2.50e-3}}}}')
    assert jourdain.format_netlist(messy) is True
    assert messy.read_text() == '{\n  "components": {"m": {"type": "mechanical1d.mass", "params": {"mass": 2.50e-3}}}\n}\n'
    assert jourdain.format_netlist(messy) is False
    commented = tmp_path / "commented.json"
    commented.write_text('{\n  // a mass\n  "components": {"m": {"type": "mechanical1d.mass"}}\n}\n')
    with pytest.raises(jourdain.InputError, match="comments"):
        jourdain.format_netlist(commented)
    assert "// a mass" in commented.read_text()
