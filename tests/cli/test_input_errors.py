"""Bad input is refused with a message naming the parameter and its allowed range, before any step."""

import math

import numpy as np
import pytest

from dem.cli.main import main
from dem.scenes.scene import build_scene


def test_sphere_radius_must_be_positive(ti_cpu):
    dem = ti_cpu
    with pytest.raises(ValueError, match=r"radius must be > 0"):
        dem.single_sphere(-0.01)
    with pytest.raises(ValueError, match=r"r_core must be > 0"):
        dem.box_clump(0.1, 0.1, 0.1, r_core=0.0)
    with pytest.raises(ValueError, match=r"r_base must be > 0"):
        dem.box_clump(0.1, 0.1, 0.1, r_core=0.01, r_base=-1.0, base_zone=0.02)


def test_mass_must_be_positive(ti_cpu):
    dem = ti_cpu
    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5)
    b = dem.ModelBuilder()
    with pytest.raises(ValueError, match=r"mass must be > 0 \[kg\], got 0"):
        b.add_clump(dem.box_clump(0.1, 0.1, 0.1, r_core=0.01), material=mat, mass=0.0)


@pytest.mark.parametrize("field,value,match", [
    ("poisson", 0.5, r"poisson must be in \[0, 0.5\)"),
    ("friction", -0.1, r"friction must be in \[0, inf\]"),
    ("damping_normal", 1.5, r"damping_normal must be in \[0, 1\]"),
])
def test_material_ranges(ti_cpu, field, value, match):
    kw = {"shear_modulus": 1e9, "poisson": 0.3, "friction": 0.5} | {field: value}
    with pytest.raises(ValueError, match=match):
        ti_cpu.Material.hertz(**kw)


def test_timestep_above_critical_estimate_is_refused(ti_cpu, tmp_path):
    from dem.run.driver import run_scene

    scene = build_scene("pena_block", {"r_core": 0.04})
    with pytest.raises(ValueError, match=r"above the critical time step ≈ [0-9.e-]+ s") as info:
        run_scene(scene, dt=1e-3, t_end=0.01, out_dir=tmp_path / "o", progress=False)
    assert "--force" in str(info.value)
    assert not (tmp_path / "o").exists()  # refused before any output or step


def test_cli_unknown_set_key(ti_cpu, tmp_path, capsys):
    code = main(["run", "pena_block", "--set", "frobnicate=3", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert "unknown parameter 'frobnicate'" in err and "theta0_deg" in err  # lists the valid keys
    assert not (tmp_path / "o").exists()


def test_cli_directory_as_the_scene(tmp_path, capsys):
    """A folder (a run's output folder, say) given as the scene: one error line, not a traceback (issue 23)."""
    run = tmp_path / "runs" / "pena_block"
    run.mkdir(parents=True)
    (run / "summary.json").write_text("{}")
    code = main(["run", str(run), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith("dem: error: scene ") and "is a directory" in err[0] and "--resume" in err[0]
    assert not (tmp_path / "o").exists()


def test_cli_out_of_range_set_value(ti_cpu, tmp_path, capsys):
    code = main(["run", "pena_block", "--set", "nu=0.7", "--out", str(tmp_path / "o")])
    assert code == 2
    assert "parameter 'nu' must be in [0, 0.5)" in capsys.readouterr().err


def test_block_starting_inside_a_wall(ti_cpu):
    dem = ti_cpu
    from dem.model.initial_overlaps import check_initial_overlaps

    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5)
    tpl = dem.box_clump(0.1, 0.1, 0.1, r_core=0.01)
    b = dem.ModelBuilder()
    b.add_clump(tpl, material=mat, mass=1.0, position=(0, 0, 0.05 - 0.004), name="sunk")  # 4 mm into the floor
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, name="floor")
    with pytest.raises(ValueError, match=r"clump 'sunk' starts inside wall 'floor'.*overlaps it by 0.004"):
        check_initial_overlaps(b.finalize())


def test_cli_dt_auto_and_bad_dt(ti_cpu, tmp_path, capsys):
    assert main(["run", "pena_block", "--dt", "fast", "--out", str(tmp_path / "o")]) == 2
    assert "--dt must be a number of seconds > 0 or 'auto'" in capsys.readouterr().err
    scene = build_scene("pena_block", {"r_core": 0.04})
    from dem.run.driver import choose_timestep

    dt, est = choose_timestep(scene, "auto")
    assert math.isclose(dt, 0.5 * est.dt) and np.isfinite(est.dt)
