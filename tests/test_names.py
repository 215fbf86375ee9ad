"""One word per meaning (issue 32, item 13; README, "Names"): a masonry wall is ``dem.masonry_wall`` (a "wall"
alone is a plane boundary), one class per kind of world, the history's interval ``history_dt`` and the step's
``history_every``, the history rows' module ``dem.physics.history_rows`` and its ``HistoryRowLayout`` (a "record" is
a ground motion), no two classes of one name (the device's ``ContactArrays``, the model's ``BodyPairContacts``),
and the engine loads the validation package only where a command asks for it (dem.references). The old public
spellings keep working for a release, each with a DeprecationWarning that names the new one."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import dem

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dem"


@pytest.mark.parametrize("module, old, new", [
    ("dem", "wall", "masonry_wall"),
    ("dem", "Worlds", "WorldBatch"),
    ("dem.model.masonry_wall", "wall", "masonry_wall"),
    ("dem.run.worlds", "Worlds", "WorldBatch"),
    ("dem.physics.history_rows", "RecordLayout", "HistoryRowLayout"),
])
def test_old_public_names_warn_and_still_work(module, old, new):
    mod = __import__(module, fromlist=["_"])
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{old} is deprecated: use {module}\.{new}\b"):
        value = getattr(mod, old)
    assert value is getattr(mod, new)


@pytest.mark.parametrize("old, new", [
    ("RecordLayout", "HistoryRowLayout"),
    ("C_POS", "C_POS"),
    ("GLOBAL_COLUMNS", "GLOBAL_COLUMNS"),
    ("add_contact_energy", "add_contact_energy"),
])
def test_the_old_history_rows_module_warns_and_still_works(old, new):
    """dem.physics.recording (the module of the history rows) is dem.physics.history_rows: each name read from the
    old module is the new module's own, with a warning naming it; importing the old module alone is silent."""
    from dem.physics import history_rows

    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*is deprecated: use")
        import dem.physics.recording as recording
    match = rf"dem\.physics\.recording\.{old} is deprecated: use dem\.physics\.history_rows\.{new}\b"
    with pytest.warns(DeprecationWarning, match=match):
        value = getattr(recording, old)
    assert value is getattr(history_rows, new)
    with pytest.raises(AttributeError):
        recording.no_such_name  # noqa: B018


def test_from_the_old_history_rows_module_import_warns():
    p = _fresh_python("""
        import warnings
        warnings.filterwarnings("error", message=".*is deprecated: use")
        try:
            from dem.physics.recording import G_NC
        except DeprecationWarning as w:
            print(w)
    """)
    assert p.returncode == 0, p.stderr
    assert "dem.physics.recording.G_NC is deprecated: use dem.physics.history_rows.G_NC" in p.stdout, p.stdout


def test_the_steps_between_history_rows_take_their_old_name_with_a_warning(ti_cpu):
    """``Simulation(record_every=...)``, ``sim.record_every`` and a world view's ``record_every`` (the steps between
    history rows) are ``history_every`` now."""
    from tests.builders import sphere_on_wall

    model = sphere_on_wall(ti_cpu)
    with pytest.warns(DeprecationWarning, match=r"Simulation\(record_every=\.\.\.\) is deprecated: use "
                                                r"Simulation\(history_every=\.\.\.\)"):
        sim = ti_cpu.Simulation(model, dt=1e-5, record_every=7)
    assert sim.history_every == 7 and "record_every" not in vars(sim)
    with pytest.warns(DeprecationWarning, match=r"Simulation\.record_every is deprecated: use Simulation\.history_ev"):
        assert sim.record_every == 7
    with pytest.raises(TypeError, match="give history_every only"), pytest.warns(DeprecationWarning):
        ti_cpu.Simulation(model, dt=1e-5, record_every=7, history_every=7)
    view = sim.world_view(0)
    assert view.history_every == 7
    with pytest.warns(DeprecationWarning, match=r"WorldView\.record_every is deprecated: use WorldView\.history_every"):
        assert view.record_every == 7
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*is deprecated: use")
        assert ti_cpu.Simulation(model, dt=1e-5, history_every=3).history_every == 3
    with pytest.raises(ValueError, match="history_every must be >= 1"):
        ti_cpu.Simulation(model, dt=1e-5, history_every=0)


def test_history_interval_takes_its_old_name_with_a_warning():
    """``record_dt`` (the interval between history rows) read as a ground-motion record's time step; it is
    ``history_dt`` now in Scene, RunOptions, run_scene's keywords and the shipped scenes' parameters."""
    from dem.run.options import RunOptions
    from dem.scenes.scene import Scene, load_scene_module, resolve_params

    with pytest.warns(DeprecationWarning, match=r"Scene\(record_dt=\.\.\.\) is deprecated: use Scene\(history_dt="):
        scene = Scene("s", None, [], 1e-5, 1.0, record_dt=2e-3, params={})
    assert scene.history_dt == 2e-3
    with pytest.warns(DeprecationWarning, match=r"Scene\.record_dt is deprecated: use Scene\.history_dt"):
        assert scene.record_dt == 2e-3
    assert Scene("s", None, [], 1e-5, 1.0, 2e-3, {}).history_dt == 2e-3  # positionally, as the scenes do
    with pytest.warns(DeprecationWarning, match=r"RunOptions\(record_dt=\.\.\.\) is deprecated"):
        assert RunOptions(record_dt=1e-3).history_dt == 1e-3
    with pytest.warns(DeprecationWarning, match=r"record_dt= is deprecated: use history_dt="):
        assert RunOptions.of(RunOptions(t_end=1.0), record_dt=1e-3).history_dt == 1e-3
    with pytest.raises(TypeError, match="give history_dt only"), pytest.warns(DeprecationWarning):
        RunOptions(record_dt=1e-3, history_dt=1e-3)
    params = load_scene_module("pena_block").PARAMS
    with pytest.warns(DeprecationWarning, match="the scene parameter record_dt is deprecated: use history_dt"):
        assert resolve_params(params, {"record_dt": "0.002"})["history_dt"] == 0.002


@pytest.mark.parametrize("old, words", [
    (["--record-dt", "0"], "--history-dt must be a number of seconds > 0"),
    (["--set", "record_dt=-1"], "history_dt"),
], ids=["--record-dt", "--set record_dt"])
def test_the_command_line_says_an_old_spelling_is_deprecated(old, words, capsys):
    """The old spelling still reaches the setting (here a bad value, refused before anything is built) and the
    command says, in a line of its own, what the new spelling is."""
    from dem.cli.main import main

    assert main(["run", "drop_box", *old, "--no-progress", "--no-plots"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("dem: warning: ") and "deprecated: use" in lines[0] and "history" in lines[0], lines
    assert lines[1].startswith("dem: error: ") and words in lines[1], lines


def test_new_names_are_public_and_silent():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name in dem.__all__:
            getattr(dem, name)
    assert not [w for w in caught if "(the old name is kept for one release)" in str(w.message)], caught
    assert {"masonry_wall", "WorldBatch"} <= set(dem.__all__)
    assert not {"wall", "Worlds"} & set(dem.__all__)


def _classes() -> list[tuple[str, str]]:
    """(class name, module path) of every class defined in dem."""
    return [(node.name, str(p.relative_to(ROOT))) for p in sorted(PACKAGE.rglob("*.py"))
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))) if isinstance(node, ast.ClassDef)]


def test_one_class_per_kind_of_world():
    """Four classes were called World (a device layout, the physics' host view, the driver's world, the batch):
    each kind of world now has a name of its own, and none is a bare World."""
    worlds = [(n.lstrip("_"), where) for n, where in _classes() if "World" in n]
    names = [n for n, _ in worlds]
    assert "World" not in names, worlds
    assert len(names) == len(set(names)), worlds


def test_no_two_classes_share_a_name():
    """Two classes were called Contacts (the device's arrays of a running simulation's contacts, and the contacts
    two builder bodies make at t = 0): a class name in dem says which thing it is."""
    classes = _classes()
    names = [n.lstrip("_") for n, _ in classes]
    twice = sorted({(n, where) for (n, where), bare in zip(classes, names) if names.count(bare) > 1})
    assert not twice, twice
    assert {"ContactArrays", "BodyPairContacts"} <= set(names)


OLD_HISTORY_NAMES = {"record_every", "RecordLayout", "recording"}
# where an old spelling is still taken on purpose: the deprecated module itself (its names are in strings elsewhere)
OLD_NAMES_KEPT_IN = {"dem/physics/recording.py"}


def _identifiers(tree: ast.AST) -> set[str]:
    """Every name a module uses as code (not in strings): names, attributes, parameters, keywords, imports."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            out.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Import):
            out |= {part for a in node.names for part in a.name.split(".")} | {a.asname for a in node.names if a.asname}
        elif isinstance(node, ast.ImportFrom):
            out |= set((node.module or "").split(".")) | {a.name for a in node.names}
            out |= {a.asname for a in node.names if a.asname}
    return out


def test_the_history_rows_old_names_are_not_used():
    """dem, the benchmarks, scenes, examples and validation use the new names only (``history_every``,
    ``HistoryRowLayout``, ``dem.physics.history_rows``); the old ones live on in strings (the deprecation shims,
    checkpoints written before the rename) and in dem/physics/recording.py."""
    paths = [p for folder in ("dem", "benchmarks", "scenes", "examples", "validation")
             for p in sorted((ROOT / folder).rglob("*.py"))]
    used = {}
    for p in paths:
        where = p.relative_to(ROOT).as_posix()
        if where in OLD_NAMES_KEPT_IN:
            continue
        old = _identifiers(ast.parse(p.read_text(encoding="utf-8"))) & OLD_HISTORY_NAMES
        if old:
            used[where] = sorted(old)
    assert not used, used


def _fresh_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_dem_and_its_modules_leave_validation_unloaded():
    """`import dem`, importing every module of dem (the kernels' included), building the command line and
    `dem --help` load nothing of the validation package: only `dem validate` and `dem sweep --engine rigid`
    do, through dem.references."""
    p = _fresh_python("""
        import contextlib, io, pkgutil, sys, importlib
        import dem
        assert not [m for m in sys.modules if m.split(".")[0] == "validation"], "import dem"
        names = [m.name for m in pkgutil.walk_packages(dem.__path__, "dem.") if not m.name.endswith("__main__")]
        for name in names:
            importlib.import_module(name)
        from dem.cli.main import main
        with contextlib.redirect_stdout(io.StringIO()):
            main(["--help"])
            main(["validate", "--help"])
            main(["sweep", "--help"])
        loaded = sorted(m for m in sys.modules if m.split(".")[0] == "validation")
        print(len(names), "modules;", "validation loaded:", loaded)
        sys.exit(1 if loaded else 0)
    """)
    assert p.returncode == 0, p.stdout + p.stderr


def test_validate_help_names_the_cases():
    """`dem validate --help` lists the cases without loading them (the list is written out in
    dem/cli/validate.py): it must be validation.cases.CASES, in its order."""
    import argparse

    from dem.cli.validate import add_arguments
    from validation.cases import CASES

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    text = " ".join(parser.format_help().split())
    assert ", ".join(CASES) in text


_WITHOUT_VALIDATION = """
    import sys
    sys.modules["validation"] = None  # as if dem were installed without the validation package
    from dem.cli.main import main
    sys.exit(main({argv!r}))
"""


@pytest.mark.parametrize("argv", [
    ["validate", "uplift", "--quick", "--out", "{tmp}"],
    ["sweep", "single_pier", "--records", "examples/data/synthetic_motion.AT2", "--scale", "0.3", "--engine", "rigid",
     "--out", "{tmp}"],
], ids=["validate", "sweep-rigid"])
def test_without_validation_the_commands_that_need_it_say_so_in_one_line(argv, tmp_path):
    argv = [a.format(tmp=tmp_path / "out") for a in argv]
    p = _fresh_python(_WITHOUT_VALIDATION.format(argv=argv))
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2, p.stdout + p.stderr
    assert len(lines) == 1 and lines[0].startswith("dem: error: "), p.stderr
    assert "'validation' package" in lines[0] and argv[0] in lines[0], lines[0]


def test_references_reraise_a_broken_import_inside_the_package(monkeypatch):
    """A module of the validation package that fails on its own import (a bug, a missing dependency of its
    own) is not reported as a missing install."""
    from dem import references

    def broken(name):
        raise ModuleNotFoundError("No module named 'some_dependency'", name="some_dependency")

    monkeypatch.setattr(references, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="some_dependency"):
        references.load("rocking", needed_by="test")
