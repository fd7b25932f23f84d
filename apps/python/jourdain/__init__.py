"""Jourdain from Python: load netlists, run them, linearize them, and run parameter studies,
estimations and optimisations on dask.distributed.

    import jourdain
    model = jourdain.load("netlists/position_servo.json")
    model.parameters["pi.kp"]                   # the PI controller's gain: its unit, default, range
    result = model.run({"pi.kp": 0.04, "load.mass": "120 kg"})
    result.to_pandas()

    study = jourdain.sweep("netlists/position_servo.json",
                           jourdain.grid({"pi.kp": [0.01, 0.02, 0.04]}),
                           outputs=["load.x:max", "wall_time"])

The README's "Python" and "Parameter studies" sections are the guide (its examples, as
this one, run from the project's root).
"""

from ._jourdain import version as __version__
from .model import (Error, InputError, Library, LinearModel, Model, OutputError, Parameter, Result, RunInterrupted,
                    SimulationError, SimulationFailed, check, format_netlist, load)
from .study import (Normal, LogNormal, Uniform, grid, latin_hypercube, linspace, monte_carlo, sweep, zipped)
from .design import Bounds, Constraint, fit, optimize

__all__ = [
    "Error", "InputError", "Library", "LinearModel", "Model", "OutputError", "Parameter", "Result", "RunInterrupted", "SimulationError",
    "SimulationFailed", "check", "format_netlist", "load", "Normal", "LogNormal", "Uniform", "grid", "latin_hypercube", "linspace",
    "monte_carlo", "sweep", "zipped", "Bounds", "Constraint", "fit", "optimize", "__version__",
]
