"""Events (overturning, leaving the domain, sustained sliding) and stops: found with their times, recorded in
summary.json, a run stops on them when asked, and after an instability the history ends at the stop with a
strict-JSON summary. An energy balance error above 1 % warns; f32 round-off is not an instability."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from dem.cli.main import main
from dem.output.history import read_history
from dem.run.driver import SimulationUnstable, run_scene
from dem.run.events import EventSpec, block_watch, tipping_angle
from dem.scenes.scene import Scene, build_scene
from tests._reliability import PENA_COARSE, QUIET, ROOT, one_error_line, strict_json
from tests.run.test_instability import _linear_sphere_scene

G = 9.81


def test_overturning_block_is_flagged_and_stopped(ti_cpu, tmp_path, capsys):
    """(Was: a block released past its tipping angle fell off the base and tumbled in free fall with status
    ok.) The coarse Peña block (r1 = 10 mm, edge spheres centred on its side faces) tips over them at
    atan(b/(h/2 − r1)) = 14.31°: released from rest at 14.1° it rocks back (no event; |θ| never exceeds 14.1°,
    energy), at 14.5° it overturns: flagged when it falls (its tilt reaches (α + 90°)/2 = 52.0°, α = 14.04°
    the scene's: the body's fell_time_s, issue 32), then it falls off the base and leaves the domain, where
    the run stops."""
    alpha = math.degrees(tipping_angle(0.125 + 0.01, 0.5, 0.01))  # edge sphere centre on the side face
    assert 14.1 < alpha < 14.5
    below, above = tmp_path / "below", tmp_path / "above"
    assert main(["run", *PENA_COARSE, "theta0_deg=14.1", "--t-end", "1.0", *QUIET, "--out", str(below)]) == 0
    s = strict_json(below / "summary.json")
    assert s["status"] == "ok" and s["events"] == []
    assert np.max(np.abs(read_history(below)["theta_deg"])) <= 14.1 + 1e-9

    assert main(["run", *PENA_COARSE, "theta0_deg=14.5", "--t-end", "4.0", *QUIET, "--out", str(above)]) == 0
    err = capsys.readouterr().err
    s = strict_json(above / "summary.json")
    kinds = [e["event"] for e in s["events"]]
    assert s["status"] == "stopped" and s["stopped_by"]["event"] == "left_domain" and kinds[0] == "overturn"
    assert s["events"][0]["t"] == s["bodies"][0]["fell_time_s"] == s["response"]["overturn_time_s"]
    assert "reached its overturning angle 52°" in s["events"][0]["detail"]
    hist = read_history(above)
    # the run ends at the record where the block left the domain (z < −1 m): history ends there too
    assert hist["t"][-1] == pytest.approx(s["stopped_by"]["t"]) == pytest.approx(s["t_end"])
    assert s["t_end"] < 4.0 and abs(hist["theta_deg"][-1]) > 60.0
    assert "dem: event: overturn of 'block'" in err and "dem: stopped at t =" in err

    # --stop-on overturn: the run ends at the record where the block fell (its tilt at the overturning angle)
    stop = tmp_path / "stop"
    assert main(["run", *PENA_COARSE, "theta0_deg=20", "--t-end", "2.0", "--stop-on", "overturn", *QUIET,
                 "--out", str(stop)]) == 0
    s = strict_json(stop / "summary.json")
    assert s["status"] == "stopped" and s["stopped_by"]["event"] == "overturn"
    assert s["t_end"] == pytest.approx(s["bodies"][0]["fell_time_s"], abs=1e-9) and s["t_end"] < 2.0
    theta = np.abs(read_history(stop)["theta_deg"])
    assert theta[-1] >= math.degrees(s["bodies"][0]["overturn_angle_rad"]) > theta[-2]  # the history ends there


def _sliding_block(v0: float, mu: float) -> Scene:
    """A squat block (0.2 × 0.05 × 0.1 m, 2 kg) launched along x at v0 on a floor with friction μ."""
    import dem

    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.25, friction=mu, damping_normal=0.2, damping_shear=0.2)
    w, h, t, r = 0.2, 0.05, 0.1, 0.01
    tpl = dem.box_clump(w, h, t, r_core=r)
    low = float(np.min(tpl.centers[:, 2] - tpl.radii))
    b = dem.ModelBuilder(gravity=(0.0, 0.0, -G))
    b.add_clump(tpl, material=mat, mass=2.0, position=(0, 0, -low), velocity=(v0, 0, 0), name="block")
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, size=(2.0, 1.0), name="floor")
    events = EventSpec(((-1, -1, -1), (1, 1, 1)), (block_watch("block", w, t, h, r, base="floor"),))
    return Scene("slide", b.finalize(), [], 5e-5, 0.25, 1e-3, {}, events=events)


def test_sliding_matches_coulomb(ti_cpu):
    """A block launched at v0 on a floor slides for v0/(μg) over v0²/(2μg) (Coulomb friction, constant
    deceleration μg). One sliding interval is found: it ends within 3 ms of v0/(μg) (the detection's
    resolution, one record interval of 1 ms, plus the ≈ 1.5 ms the normal force takes to build up under a
    block released just touching the floor: friction decelerates it only from then on), and its slip is
    within 2 % of v0²/(2μg) (the slip speed is summed at the records: ≈ v0·Δt_rec/2 = 1 % of rectangle
    error)."""
    v0, mu = 0.5, 0.5
    res = run_scene(_sliding_block(v0, mu), progress=False)
    slides = [e for e in res.summary["events"] if e["event"] == "sliding"]
    assert len(slides) == 1 and res.summary["sliding_count"] == {"block": 1}
    ev = slides[0]
    assert ev["t"] <= 2e-3
    assert ev["t_end"] == pytest.approx(v0 / (mu * G), abs=3e-3)
    assert ev["slip_m"] == pytest.approx(v0 ** 2 / (2 * mu * G), rel=0.02)
    # a block at rest does not slide
    still = run_scene(_sliding_block(0.0, mu), t_end=0.1, progress=False)
    assert still.summary["events"] == []


def test_instability_stops_the_history_at_the_stop(ti_cpu, tmp_path):
    """(Was: ~200 NaN rows after the stop time, and NaN in summary.json.) The run's history ends at the
    record where the instability was found, and summary.json is strict JSON."""
    from dem.model.timestep import damped_limit

    with pytest.raises(SimulationUnstable) as info:
        run_scene(_linear_sphere_scene(ti_cpu, 1.0, 1.2 * damped_limit(1000.0, 1.0)), progress=False,
                  implicit_damping=False, force=True, sleep=False, out_dir=tmp_path / "bad")
    s = strict_json(tmp_path / "bad" / "summary.json")
    hist = read_history(tmp_path / "bad")
    t_stop = float(s["diagnosis"].split("t = ")[1].split(" s")[0])
    assert s["status"] == "unstable" and hist["t"][-1] == pytest.approx(t_stop, rel=1e-5)
    assert s["t_end"] == pytest.approx(hist["t"][-1]) and s["steps"] * s["dt"] == pytest.approx(hist["t"][-1])
    # at most the stop record itself is non-finite
    finite = np.all(np.isfinite(np.column_stack(list(hist.values()))), axis=1)
    assert finite[:-1].all()
    assert len(info.value.result.history["t"]) == len(hist["t"])


def test_large_energy_error_ends_ok_with_a_warning(ti_cpu, tmp_path, capsys):
    """(Was: --dt 1e-3 --force ended 'ok' with a 9 % energy balance error and nothing said.) The run ends ok
    (no blow-up: 0.09 < 0.25) with the warning in summary.json and on stderr."""
    out = tmp_path / "o"
    assert main(["run", *PENA_COARSE, "--dt", "1e-3", "--force", "--t-end", "0.3", *QUIET, "--out", str(out)]) == 0
    s = strict_json(out / "summary.json")
    assert s["status"] == "ok" and 0.01 < s["max_energy_error"] < 0.25
    assert s["warnings"] and "energy balance error reached" in s["warnings"][0]
    assert "dem: warning: the energy balance error reached" in capsys.readouterr().err


def test_no_plots_means_no_plots(ti_cpu, tmp_path):
    """(Was: --no-plots still wrote plot_peak_profiles.png.)"""
    out = tmp_path / "o"
    assert main(["run", *PENA_COARSE, "--t-end", "0.3", *QUIET, "--out", str(out)]) == 0
    assert (out / "peaks.csv").exists() and not list(out.glob("*.png"))


def test_strict_json_nulls_non_finite_values_with_a_reason(tmp_path):
    """(Was: Infinity and NaN written into summary.json.)"""
    from dem.output.files import write_json

    write_json(tmp_path / "s.json", {"a": math.inf, "b": [1.0, math.nan], "c": np.float64(-np.inf), "d": 2},
               reasons={"a": "no contact"})
    s = strict_json(tmp_path / "s.json")
    assert s["a"] is None and s["b"] == [1.0, None] and s["c"] is None and s["d"] == 2
    assert s["null_reasons"] == {"a": "no contact", "b[1]": "not a finite number: nan",
                                 "c": "not a finite number: -inf"}


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_f32_roundoff_is_not_a_blow_up(ti_cpu, tmp_path):
    """(Was: --precision f32 on the paper packing stopped as 'energy blow-up' at 0.02 s.) The f32 run of the
    Peña block goes on (its ledger drifts by up to ~30 % of the little energy in play while the block
    starts to move: round-off, dem.run.instability), with a warning that says so, and its θ follows the f64
    run's: within 5e-3° to the first impact (0.19 s; f32 carries 7 digits of θ's ~3° and of the positions)."""
    f32 = tmp_path / "f32"
    r = subprocess.run([sys.executable, "-m", "dem.cli", "run", "pena_block", "--precision", "f32", "--t-end", "0.19",
                        *QUIET, "--out", str(f32)], cwd=ROOT, capture_output=True, text=True, timeout=1100)
    assert r.returncode == 0, r.stderr
    s = strict_json(f32 / "summary.json")
    assert s["status"] == "ok" and s["precision"] == "f32"
    assert s["max_energy_error"] > 0.1 and "rounding of positions" in s["warnings"][0]
    ref = run_scene(build_scene("pena_block", {}), t_end=0.19, progress=False, plots=False)
    th32 = read_history(f32)["theta_deg"]
    assert np.max(np.abs(th32 - ref.history["theta_deg"])) < 5e-3
    assert json.loads((f32 / "summary.json").read_text())["steps"] == ref.summary["steps"]


def test_unknown_stop_on_kind(ti_cpu, tmp_path, capsys):
    assert main(["run", *PENA_COARSE, "--stop-on", "explosion", *QUIET, "--out", str(tmp_path / "o")]) == 2
    assert "argument --stop-on: invalid choice: 'explosion'" in one_error_line(capsys.readouterr().err)
