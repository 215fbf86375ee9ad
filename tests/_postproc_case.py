"""A small run with ParaView frames, shared by the post-processing tests and built once per test process.

Two box clumps (a 0.1 × 0.2 × 0.1 m block resting on a 1.0 × 0.6 m base facet, and a graded
0.15 × 0.1 × 0.1 m block falling onto it from 2 mm, tilted and spinning) beside an infinite side plane:
two clumps, a facet and a plane, frames without contacts (t = 0) and with them. 0.03 s, a frame every
0.01 s: a few seconds after Taichi's kernel cache is warm. Δt divides the record and frame intervals, so
every frame falls on a record of the history.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from dem.output.results import read_pvd

T_END = 0.03  # [s]
FRAME_DT = 0.01  # [s]
RECORD_DT = 0.001  # [s]
DT = 1e-4  # [s], below the critical estimate (≈ 2e-4 s for these spheres and this stiffness)


@dataclass
class PostprocRun:
    out_dir: Path
    model: object
    frames: list  # the dem.output.snapshot.Frame objects handed to the writer, in order
    pvd_after_write: list  # read_pvd(run.pvd) right after each write: what an interrupted run leaves
    result: object  # dem.run.RunResult


class Recorder:
    """A frame writer that passes frames on to `inner` and keeps them, and the .pvd after each write."""

    def __init__(self, inner):
        self.inner = inner
        self.frames, self.pvd_after_write = [], []

    @property
    def all_spheres(self) -> bool:
        return self.inner.all_spheres

    def write(self, frame) -> None:
        self.inner.write(frame)
        self.frames.append(frame)
        self.inner.flush()  # run.pvd lists it now: what a stop at this point leaves
        self.pvd_after_write.append(read_pvd(self.inner.pvd_path))

    def close(self) -> None:
        self.inner.close()


def build_model():
    import dem
    from dem.model.model import rotation_matrix

    dem.init("cpu")
    stone = dem.Material.hertz(young=5e9, poisson=0.25, friction=0.5, damping_normal=0.2, damping_shear=0.2,
                               density=2500.0)
    b = dem.ModelBuilder()
    tall = dem.box_clump(0.1, 0.2, 0.1, r_core=0.02)
    low = dem.box_clump(0.15, 0.1, 0.1, r_core=0.02, r_base=0.01, base_zone=0.03)
    z0 = -float(np.min(tall.centers[:, 2] - tall.radii))
    b.add_clump(tall, material=stone, position=(-0.2, 0.0, z0), name="tall")
    tilt = rotation_matrix(np.array([0.0, 0.1, 0.0]))  # rotation vector [rad]
    z1 = 0.002 - float(np.min((low.centers @ tilt.T)[:, 2] - low.radii))
    b.add_clump(low, material=stone, position=(0.15, 0.05, z1), orientation=tilt, angular_velocity=(0.0, 0.0, 3.0),
                velocity=(0.1, 0.0, -0.2), name="low")
    b.add_wall((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), material=stone, u_axis=(1.0, 0.0, 0.0), size=(1.0, 0.6), name="base")
    b.add_wall((-0.4, 0.0, 0.0), (1.0, 0.0, 0.0), material=stone, name="side")
    return b.finalize()


def make_run(out_dir: Path) -> PostprocRun:
    from dem.output.paraview import VtkWriter
    from dem.run.driver import run_scene
    from dem.scenes.scene import Scene

    model = build_model()
    scene = Scene("postproc_case", model, [], DT, T_END, RECORD_DT, {})
    rec = Recorder(VtkWriter(out_dir, model))
    result = run_scene(scene, out_dir=out_dir, frame_dt=FRAME_DT, frame_writer=rec, progress=False,
                       plots=False)
    return PostprocRun(out_dir, model, rec.frames, rec.pvd_after_write, result)


_CACHE: dict = {}


@pytest.fixture(scope="session", name="postproc_run")
def postproc_run_fixture(tmp_path_factory) -> PostprocRun:
    # imported by several test modules, each of which gets its own fixture object: cache per process
    if "run" not in _CACHE:
        _CACHE["run"] = make_run(tmp_path_factory.mktemp("postproc"))
    return _CACHE["run"]
