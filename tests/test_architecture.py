"""The package's shape (docs/architecture.md): layers as sub-packages, each importing only its own layer and
those below it, no import cycles, and no import hidden inside a function except where it keeps a heavy or
optional dependency, or the kernel toolchain's start-up, off the path of a command that does not need it.

Read from the source with ``ast`` (nothing is imported), so that a new module is checked as soon as it exists.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "dem"

# Bottom to top. A module may import its own layer and the layers before it in this list.
LAYERS = ["version", "references", "model", "records", "device", "physics", "output", "scenes", "run", "sweep", "cli",
          ""]

# Third-party packages that may be imported inside a function: optional extras (pyvista, vtk, imageio, Dask)
# and the heavy ones a command needs only some of the time (matplotlib for plots, pandas/pyarrow for tables,
# SciPy's solvers, tqdm's bar). The repository's validation package is not among them: dem never imports it by
# a statement, only by name in dem.references (test_dem_names_validation_in_one_place).
DEFERRABLE = {"pyvista", "vtk", "imageio", "imageio_ffmpeg", "PIL", "dask", "distributed", "matplotlib", "pandas",
              "pyarrow", "scipy", "tqdm", "meshio"}
TOOLCHAIN = "dem.device.toolchain"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else ""


def modules() -> dict[str, ast.Module]:
    """Every module of dem and of validation (the reference solvers and cases), parsed."""
    paths = sorted(PACKAGE.rglob("*.py")) + sorted((PACKAGE.parent / "validation").rglob("*.py"))
    return {module_name(p): ast.parse(p.read_text(), str(p)) for p in paths}


MODULES = modules()
DEM = [m for m in MODULES if m == "dem" or m.startswith("dem.")]


def targets(mod: str, node) -> list[str]:
    """The dem modules an import statement loads (a package's name when it imports a name from it)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    is_pkg = (PACKAGE.parent / mod.replace(".", "/") / "__init__.py").exists()
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    if node.level:
        base = base[: len(base) - (node.level - 1)]
        src = ".".join(base + ([node.module] if node.module else []))
    else:
        src = node.module or ""
    out = []
    for a in node.names:
        out.append(f"{src}.{a.name}" if f"{src}.{a.name}" in MODULES else src)
    return out


def imports(mod: str) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(module-level imports, imports inside functions) of `mod`, each as (target, line); TYPE_CHECKING
    blocks are left out (they never run)."""
    top, inner = [], []

    def visit(node, in_function: bool):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for t in targets(mod, node):
                (inner if in_function else top).append((t, node.lineno))
            return
        nested = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, nested)

    visit(MODULES[mod], False)
    return top, inner


EDGES = {m: imports(m) for m in MODULES}


def top_closure(mod: str, seen=None) -> set[str]:
    """Every dem module that importing `mod` loads (module-level imports, and the packages above each)."""
    seen = set() if seen is None else seen
    for t, _ in EDGES[mod][0]:
        for k in range(2, t.count(".") + 2):  # importing dem.a.b runs dem.a's __init__ too
            parent = ".".join(t.split(".")[:k])
            if parent in MODULES and parent not in seen:
                seen.add(parent)
                top_closure(parent, seen)
    return seen


def deferrable(mod: str) -> bool:
    """Whether importing dem module `mod` loads the kernel toolchain or a heavy or optional package."""
    loaded = top_closure(mod) | {mod}
    if TOOLCHAIN in loaded:
        return True
    return any(t.split(".")[0] in DEFERRABLE for m in loaded for t, _ in EDGES[m][0])


def test_every_module_is_in_a_layer():
    assert {layer(m) for m in DEM} <= set(LAYERS)
    loose = [m for m in DEM if m.count(".") == 1 and layer(m) == "" and m not in ("dem.__main__",)]
    assert loose == [], f"modules outside the layers' folders: {loose}"


def test_no_module_imports_a_layer_above_its_own():
    wrong = []
    for m in DEM:
        top, inner = EDGES[m]
        for t, line in top + inner:
            if t.startswith("dem") and t in MODULES and LAYERS.index(layer(t)) > LAYERS.index(layer(m)):
                wrong.append(f"{m}:{line} imports {t} ({layer(t) or 'dem'} is above {layer(m)})")
    assert wrong == [], "\n".join(wrong)


def _names_validation(node) -> bool:
    """Whether a string constant names the validation package or one of its modules ('validation',
    'validation.rocking'; not a path such as 'validation/data' or prose)."""
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)
            and (node.value == "validation" or node.value.startswith("validation.") and " " not in node.value))


def test_dem_names_validation_in_one_place():
    """The reference solvers and the validation cases are dem's yardstick, not its parts (issue 32, item 13:
    the engine imported them in two places). No dem module imports the validation package by a statement;
    dem.references alone names it, and loads it when `dem sweep --engine rigid` or `dem validate` asks."""
    statements = [f"{m}:{line} imports {t}" for m in DEM for t, line in EDGES[m][0] + EDGES[m][1]
                  if t.split(".")[0] == "validation"]
    assert statements == [], "\n".join(statements)
    naming = sorted({m for m in DEM for node in ast.walk(MODULES[m]) if _names_validation(node)})
    assert naming == ["dem.references"], naming


def test_references_do_not_use_the_engine():
    """validation/ checks dem from outside: its reference solvers never import dem (the cases drive dem runs
    and compare them with the references, so they may)."""
    wrong = [f"{m}:{line} imports {t}" for m in MODULES if m.startswith("validation.") and
             not m.startswith("validation.cases") for t, line in EDGES[m][0] + EDGES[m][1]
             if t.split(".")[0] == "dem"]
    assert wrong == [], "\n".join(wrong)


def test_no_import_cycles():
    graph = {m: {t for t, _ in top + inner if t in MODULES and t != m} for m, (top, inner) in EDGES.items()}
    # a package's __init__ that re-exports from its modules is not a cycle with them: leave out edges into
    # a package from its own sub-modules (importing dem.x.y runs dem.x first, by Python's rules)
    for m in graph:
        graph[m] = {t for t in graph[m] if not m.startswith(t + ".")}
    state, cycles = {}, []

    def dfs(m, path):
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycles.append(" -> ".join(path[path.index(t):] + [t]) if t in path else f"{m} -> {t}")
            elif t not in state:
                dfs(t, path + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            dfs(m, [m])
    assert cycles == [], "\n".join(cycles)


def test_deferred_imports_only_for_heavy_dependencies_or_the_toolchain():
    """An import inside a function hides a dependency from the reader. Allowed only where it keeps the kernel
    toolchain (seconds, and its start-up) or a heavy or optional third-party package off a command's path
    (`dem --help` stays at a few tenths of a second)."""
    wrong = []
    for m in DEM:
        for t, line in EDGES[m][1]:
            root = t.split(".")[0]
            if root == "dem":
                if t not in MODULES:
                    wrong.append(f"{m}:{line} imports {t}, which does not exist")
                elif not deferrable(t):
                    wrong.append(f"{m}:{line} imports {t} inside a function, and {t} loads neither the toolchain "
                                 "nor a heavy package")
            elif root not in DEFERRABLE:
                wrong.append(f"{m}:{line} imports {t} inside a function ({root} is neither heavy nor optional)")
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize("mod", ["dem", "dem.cli.main", "dem.scenes.scene", "dem.output.results", "dem.model.model",
                                 "dem.run.options"])
def test_light_modules_do_not_load_the_toolchain(mod):
    """`import dem`, `dem --help`, `dem scenes`, reading results back and building a model do not start Taichi
    (about a second and its banner)."""
    assert TOOLCHAIN not in top_closure(mod)


def test_ruff_clean_with_the_complexity_limit():
    """`ruff check .` with the project's rules (pyproject.toml: pycodestyle, pyflakes, isort, bugbear, pyupgrade,
    and McCabe complexity ≤ 15 on dem/), so that a style or complexity regression fails the suite, not a review."""
    pytest.importorskip("ruff", reason="ruff is in the test extra (pip install -e '.[test]')")
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=PACKAGE.parent,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
