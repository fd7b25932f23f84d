"""Jourdain from Python: load netlists, run them, linearize them, and run parameter studies
on dask.distributed.

    import jourdain
    model = jourdain.load("netlists/position_servo.json")
    result = model.run({"controller.kp": 40})
    result.to_pandas()

    study = jourdain.sweep("netlists/position_servo.json",
                           jourdain.grid({"controller.kp": [10, 20, 40]}),
                           outputs=["load.x:max", "wall_time"])

The README's "Python" and "Parameter studies" sections are the guide.
"""

from ._jourdain import version as __version__
from .model import (Error, InputError, Library, LinearModel, Model, OutputError, Parameter, Result, SimulationError,
                    SimulationFailed, load)
from .study import (Normal, LogNormal, Uniform, grid, latin_hypercube, linspace, monte_carlo, sweep, zipped)

__all__ = [
    "Error", "InputError", "Library", "LinearModel", "Model", "OutputError", "Parameter", "Result", "SimulationError",
    "SimulationFailed", "load", "Normal", "LogNormal", "Uniform", "grid", "latin_hypercube", "linspace",
    "monte_carlo", "sweep", "zipped", "__version__",
]
