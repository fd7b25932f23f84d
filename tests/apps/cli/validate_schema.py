"""The netlist schema (`jourdain schema`) against the netlists Jourdain ships, and against
broken ones it must refuse.

    /usr/bin/python3 validate_schema.py --jourdain JOURDAIN --netlists DIR

Runs `jourdain schema`, checks that the schema itself is valid JSON Schema (draft
2020-12), that every netlists/*.json validates (and every subsystem file a netlist
names, against the subsystem definition), that each broken variant of a good netlist
fails it, and that the loader accepts a netlist carrying "$schema". Needs Debian's
python3-jsonschema (.ci/install-deps installs it), hence /usr/bin/python3.
"""
import argparse
import copy
import json
import pathlib
import subprocess
import sys
import tempfile

try:
    from jsonschema import Draft202012Validator
except ImportError:
    sys.exit("validate_schema.py: needs jsonschema with draft 2020-12 "
             "(apt-get install python3-jsonschema; .ci/install-deps does) for " + sys.executable)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
    return r.stdout


def errors_of(validator, document):
    return sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))


def describe(error):
    return "/" + "/".join(map(str, error.absolute_path)) + ": " + error.message[:300]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jourdain", required=True)
    ap.add_argument("--netlists", required=True)
    args = ap.parse_args()
    failures = []

    with tempfile.TemporaryDirectory() as tmp:
        schema_file = pathlib.Path(tmp) / "netlist.schema.json"
        run([args.jourdain, "schema", "-o", str(schema_file)])
        schema = json.loads(schema_file.read_text())
        Draft202012Validator.check_schema(schema)
        netlist_validator = Draft202012Validator(schema)
        subsystem_validator = Draft202012Validator(
            {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/subsystem_definition"})

        # Every shipped netlist, and the subsystem files they name.
        files = sorted(pathlib.Path(args.netlists).glob("*.json"))
        files = [f for f in files if f.name != "netlist.schema.json"]
        if not files:
            sys.exit(f"no netlists in {args.netlists}")
        subsystem_files = set()
        for f in files:
            doc = json.loads(f.read_text())
            for e in errors_of(netlist_validator, doc):
                failures.append(f"{f.name}{describe(e)}")
            for path in doc.get("subsystems", {}).values():
                if isinstance(path, str):
                    subsystem_files.add((f.parent / path).resolve())
        for f in sorted(subsystem_files):
            for e in errors_of(subsystem_validator, json.loads(f.read_text())):
                failures.append(f"{f.name} (subsystem){describe(e)}")
        print(f"{len(files)} netlists and {len(subsystem_files)} subsystem files checked against the schema")

        # A good netlist, then variants the schema must refuse.
        good = {
            "$schema": "./netlist.schema.json",
            "name": "osc",
            "components": {
                "wall": {"type": "mechanical1d.fixed"},
                "spring": {"type": "mechanical1d.spring", "params": {"stiffness": "100 N/m"}},
                "mass": {"type": "mechanical1d.mass", "params": {"mass": 2}, "initial": {"x": "100 mm"}},
                "valve": {"type": "hydraulic.orifice", "params": {"diameter": "2 mm", "control": "signal"}},
                "integral": {"type": "signal.integrator", "initial": {"y": 1}},
            },
            "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"]],
            "solver": {"method": "bdf", "t_end": "2 s", "rtol": 1e-6},
            "record": ["mass.x", "spring.force"],
        }
        for e in errors_of(netlist_validator, good):
            failures.append(f"the good netlist{describe(e)}")

        def broken(why, change):
            doc = copy.deepcopy(good)
            change(doc)
            if not errors_of(netlist_validator, doc):
                failures.append(f"not refused by the schema: {why}")

        def at(path, value):
            def change(doc):
                node = doc
                for key in path[:-1]:
                    node = node.setdefault(key, {}) if isinstance(node, dict) else node[key]
                node[path[-1]] = value
            return change

        mass = ["components", "mass"]
        broken("unknown component type", at(mass + ["type"], "mechanical1d.mas"))
        broken("unknown parameter", at(mass + ["params", "mas"], 2))
        broken("a string that is no quantity for a number", at(mass + ["params", "mass"], "heavy"))
        broken("a boolean for a number", at(mass + ["params", "mass"], True))
        broken("a unit before its number", at(mass + ["params", "mass"], "kg 2"))
        broken("a number out of its range", at(mass + ["params", "mass"], -1))
        broken("a choice that is not offered", at(["components", "valve", "params", "control"], "open"))
        broken("a required parameter missing",
               at(["components", "jack"], {"type": "hydraulic.cylinder", "params": {"bore_diameter": "100 mm"}}))
        # (a type whose states no configuration parameter can change)
        broken("an unknown state in initial", at(["components", "integral", "initial", "yy"], 0))
        broken("an unknown key in a component", at(mass + ["parameters"], {}))
        broken("an unknown solver setting", at(["solver", "rtoll"], 1e-6))
        broken("an unknown solver method", at(["solver", "method"], "euler"))
        broken("a solver setting out of its range", at(["solver", "rtol"], -1))
        broken("a whole-number setting given a fraction", at(["solver", "max_steps"], 2.5))
        broken("an unknown world setting", at(["world", "gravityy"], [0, -9.81]))
        broken("an unknown top-level key", at(["recorded"], []))
        broken("a connection that is not comp.port", at(["connections", 0], ["wall", "spring.a"]))
        broken("a record that is not comp.variable", at(["record", 0], "mass"))
        broken("a component name with a dot", at(["components", "a.b"], {"type": "mechanical1d.mass"}))

        # The loader ignores "$schema" (a netlist an editor checks must still run).
        netlist = pathlib.Path(tmp) / "with_schema.json"
        netlist.write_text(json.dumps({k: v for k, v in good.items() if k != "components" and k != "solver"} | {
            "components": {k: v for k, v in good["components"].items() if k not in ("valve", "integral")},
            "solver": {"method": "dopri5", "t_end": 1}}))
        run([args.jourdain, "check", str(netlist)])

    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print("the schema accepts the shipped netlists and refuses the broken ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
