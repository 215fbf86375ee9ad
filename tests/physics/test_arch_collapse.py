"""The DEM arch against the limit analysis of rigid voussoirs (issue 22, item 4): validation.arch (which does
not use the engine) solves the static theorem as a linear program — no tension, no sliding (Heyman 1966;
Livesley 1978) — for the collapse load factor λ of a held horizontal acceleration λ g, and, at λ = 0, for
the least thickness that stands. The reference is built from the DEM's own voussoirs (dem.model.arch: the
quadrilaterals of the joints' end points, 2 % lighter than annular sectors), so that both analyse one arch.

Semicircular arch, R = 1 m, 9 voussoirs, depth 0.3 m, springings on the table, μ = 0.8 (no sliding: the
limit analysis's assumption). Stiff contacts (E = 200 GPa), as for the stacks (tests/physics/
test_column_uplift.py): the DEM's compliance lowers its collapse load a little (measured: t/R = 0.15 stands
held at 0.98 λ and collapses at 0.99 λ).
"""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from dem.model.arch import arch, voussoir_polygons
from dem.model.materials import Material
from dem.model.model import ModelBuilder
from dem.model.walls import WallMotion
from dem.scenes.scene import Param, Scene
from validation.arch import GROUND, Assembly, Block, Joint, collapse_load_factor
from validation.arch.sections import polygon_area_centroid

G = 9.81
N, R, DEPTH, RHO = 9, 1.0, 0.3, 2200.0
TOL = 0.05
"""Issue 22: the DEM arch stands below λ and collapses above it, within 5 %."""
STANDS, FALLS = 0.1, 1.0
"""[deg] largest voussoir rotation: measured ≤ 0.013° standing at 0.95 λ and at 1.15 × the least thickness;
falling, 1.5° and more after the 0.4 s hold at 1.05 λ, 2.4° by 0.2 s at 0.9 × the least thickness."""


def rigid_arch(thickness: float) -> Assembly:
    """The DEM arch's voussoirs (dem.model.arch.voussoir_polygons) as validation.arch's rigid blocks."""
    blocks = []
    for i, poly in enumerate(voussoir_polygons(R, thickness, N)):
        area, centroid = polygon_area_centroid(poly)
        blocks.append(Block(f"voussoir{i}", area * DEPTH * RHO * G, np.asarray(centroid), poly))
    r_in, r_out = R - thickness / 2, R + thickness / 2
    joints = []
    for i, phi in enumerate(math.pi * np.arange(N + 1) / N):
        u = np.array([math.cos(phi), math.sin(phi)])
        joints.append(Joint(f"joint{i}", r_in * u, r_out * u, i - 1 if i > 0 else GROUND, i if i < N else GROUND))
    return Assembly(tuple(blocks), tuple(joints))


def least_thickness(tol: float = 1e-6) -> float:
    """t [m] below which the rigid arch cannot stand under its own weight (bisection on the LP's feasibility)."""
    lo, hi = 0.02, 0.5
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if collapse_load_factor(rigid_arch(mid), load_factor=0.0).feasible else (mid, hi)
    return hi


SETTLE, RAMP, HOLD = 0.4, 0.3, 0.4  # [s]


def _build(p: dict) -> Scene:
    from dem.run.assembly_probes import assembly_probes
    from dem.run.events import EventSpec

    a = p["factor"] * p["lam"] * G
    t_end = p["t_end"]

    def velocity(t):  # still, then an acceleration ramping to a over RAMP, then held
        s = np.clip(t - SETTLE, 0.0, None)
        return np.outer(np.where(s < RAMP, a * s * s / (2 * RAMP), a * (RAMP / 2 + s - RAMP)), [1.0, 0.0, 0.0])

    stone = Material.hertz(young=200e9, poisson=0.25, friction=0.8, damping_normal=0.15, damping_shear=0.15,
                           density=RHO, damping_mass="shared")
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=stone, motion=WallMotion.from_function(velocity, t_end, 1e-3),
                       name="table")
    thin = p["t"] < 0.12  # the least-thickness arches: smaller spheres across their thin joints
    ar = arch(b, radius=R, thickness=p["t"], voussoirs=N, depth=DEPTH, material=stone, base=table,
              r_core=0.016 if thin else 0.025, r_joint=0.008 if thin else 0.01, zone=0.025 if thin else 0.035)
    domain = ((-1e3, -1e3, -10.0), (1e3, 1e3, 10.0))  # the table carries the arch away during the hold
    # Δt 4e-5 s: below the assembly's critical estimate at 200 GPa (4.8e-5 s through the voussoirs' solids; 5.2e-5 s
    # sphere on sphere, whose joints the estimate took a little softer)
    return Scene("arch", b.finalize(), assembly_probes(ar), 4e-5, t_end, 0.01, p, {"bodies": list(ar.body_names)},
                 events=EventSpec(domain))


HELD = SimpleNamespace(NAME="arch", build=_build, PARAMS={
    "t": Param(0.15, "thickness", "m", low=0, low_open=True), "lam": Param(0.1, "λ", "", low=0),
    "factor": Param(1.0, "held acceleration ÷ λ g", "", low=0), "t_end": Param(1.0, "duration", "s", low=0)})


def _largest_rotation(worlds, results) -> list[np.ndarray]:
    names = worlds.scenes[0].info["bodies"]
    return [np.max(np.abs([r.history[f"{n}_theta_deg"] for n in names]), axis=0) for r in results]


@pytest.mark.slow  # two arches through settling, ramp and hold at Δt = 4e-5 s: 1-1.5 min; CI runs it (.ci/run)
def test_arch_stands_below_the_collapse_load_and_falls_above(ti_cpu):
    from dem.run.worlds import build_worlds, run_worlds

    thickness = 0.15
    lam = collapse_load_factor(rigid_arch(thickness)).load_factor
    assert lam == pytest.approx(0.1474, abs=1e-3)
    t_end = SETTLE + RAMP + HOLD
    worlds = build_worlds(HELD, [{"t": thickness, "lam": lam, "factor": f, "t_end": t_end} for f in (1 - TOL, 1 + TOL)])
    stand, fall = _largest_rotation(worlds, run_worlds(worlds, progress=False, plots=False))
    assert stand.max() < STANDS, stand.max()
    assert fall[-1] > FALLS and fall[-1] > 2 * fall[-20], fall[-20:]  # falling faster and faster


def test_least_thickness_of_the_arch(ti_cpu):
    """Under its own weight: 1.15 × the least thickness stands, 0.9 × falls (issue 22). The rigid least
    thickness of these 9 quadrilateral voussoirs is t/R = 0.1015 (of annular sectors 0.1021,
    validation.arch.minimum_thickness; Milankovitch's 0.1075 as n → ∞)."""
    from dem.run.worlds import build_worlds, run_worlds

    t_min = least_thickness()
    assert t_min / R == pytest.approx(0.1015, abs=5e-4)
    worlds = build_worlds(HELD, [{"t": f * t_min, "lam": 0.0, "factor": 0.0, "t_end": 0.4} for f in (1.15, 0.9)])
    stand, fall = _largest_rotation(worlds, run_worlds(worlds, progress=False, plots=False))
    assert stand.max() < STANDS, stand.max()
    assert fall[-1] > FALLS and fall[-1] > 2 * fall[-10], fall[-10:]
