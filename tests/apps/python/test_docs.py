"""Every example the documentation gives runs as written: the Python blocks of the
project's markdown files, the examples in the package's docstrings, and the command lines
of the README's shell blocks that run Jourdain (`jourdain ...`, `python3 -m jourdain
sweep ...`). `help(jourdain)` once showed a parameter the netlist does not have.

Each Python example runs in a fresh interpreter and each command as a user types it, in a
temporary folder that sees the project's netlists and tests folders (the examples run from
the project's root), so that what they write lands there. A study an example leaves in a
variable must have finished every run."""

import ast
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import JOURDAIN_EXE, SOURCE_DIR

PACKAGE = SOURCE_DIR / "apps" / "python" / "jourdain"
# What the reader brings: a plugin of their own (the tests' tiny plugin stands in for it),
# a netlist of their own (the lines that run one are skipped).
PLUGIN = os.environ.get("JOURDAIN_TINY_PLUGIN",
                        str(SOURCE_DIR / "build" / "tests" / "plugin" / "libjourdain_tiny_plugin.so"))
PLACEHOLDERS = {"./libmyparts.so": PLUGIN}
READERS_OWN = ("my.json",)
# Commands left out for their cost, run elsewhere: IFToMM A02 (4 s; tests/netlists runs
# every netlist).
LEFT_OUT = ("$J run netlists/n_four_bar.json",)

# Runs one example: its text on stdin, compiled under the name of the file it comes from
# and padded to its line there, so that a traceback points into the documentation. A
# DataFrame with a status column (a study) must have finished every run.
RUNNER = """
import sys
name, line = sys.argv[1], int(sys.argv[2])
code = "\\n" * (line - 1) + sys.stdin.read()
scope = {"__name__": "__main__"}
exec(compile(code, name, "exec"), scope)
import pandas
for key, value in scope.items():
    if isinstance(value, pandas.DataFrame) and "status" in value.columns:
        assert (value["status"] == "finished").all(), (key, value[["status", "error"]])
"""


def markdown_files() -> list[Path]:
    files = [p for p in SOURCE_DIR.glob("*.md")]
    for top in SOURCE_DIR.iterdir():
        if top.is_dir() and not top.name.startswith(".") and top.name not in ("build", "results"):
            files += top.rglob("*.md")
    return sorted(files)


def markdown_blocks(language: str) -> list[tuple[str, int, str]]:
    """(file, first line, text) of every fenced block in ``language``."""
    blocks = []
    for path in markdown_files():
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(rf"^```{language}\n(.*?)^```", text, re.S | re.M):
            line = text.count("\n", 0, match.start(1)) + 1
            blocks.append((str(path.relative_to(SOURCE_DIR)), line, match.group(1)))
    return blocks


def docstring_examples() -> list[tuple[str, int, str]]:
    """(file, first line, text) of every indented block in the package's docstrings: the
    examples (a paragraph indented four spaces past its docstring's text)."""
    examples = []
    for path in sorted(PACKAGE.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            doc = ast.get_docstring(node, clean=True)
            if not doc:
                continue
            # Indented lines, and the blank lines between them, after a blank line.
            for match in re.finditer(r"(?:^|\n)\n((?: {4}.*(?:\n|$)|\n(?= {4}))+)", doc):
                block = "\n".join(line[4:] for line in match.group(1).rstrip("\n").split("\n"))
                first = match.group(1).split("\n")[0].strip()
                # (In the source, a docstring's backslash is written twice.)
                line = next(i for i, text in enumerate(lines, 1) if text.strip().replace("\\\\", "\\") == first)
                examples.append((str(path.relative_to(SOURCE_DIR)), line, block))
    return examples


def commands(text: str) -> list[str]:
    """The lines of a shell block, backslash continuations joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [re.sub(r"\s+#(\s.*)?$", "", line).strip() for line in joined.splitlines() if line.strip()]


def is_command(line: str) -> bool:
    return line.startswith(("$J ", "python3 -m jourdain "))


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A folder seen as the project's root by the examples, theirs to write in."""
    root = tmp_path_factory.mktemp("docs")
    for name in ("netlists", "tests"):
        (root / name).symlink_to(SOURCE_DIR / name)
    return root


def run_python(folder: Path, name: str, line: int, code: str) -> None:
    for placeholder, actual in PLACEHOLDERS.items():
        code = code.replace(placeholder, actual)
    done = subprocess.run([sys.executable, "-c", RUNNER, name, str(line)], input=code, cwd=folder,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{name}:{line}: the example fails:\n{done.stderr}"


def test_the_examples_are_found():
    # The extraction itself: the blocks this test is meant to run are among those it finds.
    found = markdown_blocks("python") + docstring_examples()
    assert any(name == "README.md" and "jourdain.sweep(" in text for name, _, text in found)
    assert any(name.endswith("__init__.py") and "jourdain.load(" in text for name, _, text in found)
    assert any(name.endswith("__main__.py") and text.startswith("python3 -m jourdain sweep") for name, _, text in found)
    assert sum(is_command(c) for _, _, text in markdown_blocks("sh") for c in commands(text)) >= 10


@pytest.mark.parametrize("name,line,code", [pytest.param(*b, id=f"{b[0]}:{b[1]}")
                                            for b in markdown_blocks("python") + docstring_examples()
                                            if not is_command(b[2])])
def test_python_examples_run(folder, name, line, code):
    run_python(folder, name, line, code)


@pytest.fixture(scope="module")
def scheduler():
    """One cluster for the command lines' studies: a local one each took three of the
    test's five seconds per study to start (test_study.py runs the command line's own)."""
    from dask.distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_command_line_examples_run(folder, scheduler):
    # The README's shell blocks in their order (an FMU exported in one is described in a
    # later one), and the study command of the `python3 -m jourdain` module's docstring.
    lines = [(name, line, c) for name, line, text in markdown_blocks("sh") for c in commands(text) if is_command(c)]
    lines += [(name, line, c) for name, line, text in docstring_examples() for c in commands(text) if is_command(c)]
    for name, line, command in lines:
        words = shlex.split(command)
        if any(word in READERS_OWN for word in words) or command in LEFT_OUT:
            continue
        if words[:2] == ["$J", "studio"]:
            continue  # a server that runs until stopped: tests/apps/studio drives it

        words = [PLACEHOLDERS.get(word, word) for word in words]
        words = [JOURDAIN_EXE] + words[1:] if words[0] == "$J" else [sys.executable] + words[1:]
        if "sweep" in words:
            words += ["--scheduler", scheduler]
        done = subprocess.run(words, cwd=folder, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and "Traceback" not in done.stderr, \
            f"{name}:{line}: {command}\nexit {done.returncode}\n{done.stderr}"
