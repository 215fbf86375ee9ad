"""See the body, not only its spheres (issue 31, item 4): a run of a body from a mesh writes, in each ParaView
frame, the body's own triangles moved by its pose (part ``surfaces``, dem.output.paraview), which results
readers list and ``dem render`` draws instead of the body's spheres. Models without such bodies write no such
part (their frames are as before)."""

import math

import numpy as np
import pytest

from dem.model.model import quat_to_matrix
from dem.output.paraview import PARTS, SURFACES
from dem.output.results import load_results
from dem.scenes.scene import build_scene


@pytest.fixture(scope="module")
def stele_run(tmp_path_factory, ti_cpu):
    """The stele released from 3° for 0.3 s, a frame every 0.05 s."""
    from dem.output.paraview import VtkWriter
    from dem.run.driver import run_scene

    out = tmp_path_factory.mktemp("stele")
    scene = build_scene("mesh_body", {"theta0_deg": 3.0, "t_end": 0.3, "r_surface": 0.02})
    run_scene(scene, out_dir=out, frame_dt=0.05, frame_writer=lambda: VtkWriter(out, scene.model), progress=False,
              plots=False)
    return out, scene


def test_each_frame_holds_the_body_surface_at_its_pose(stele_run):
    out, scene = stele_run
    res = load_results(out)
    assert res.frame_count >= 6  # t = 0, 0.05, ... (frame times rounded to whole steps)
    mesh = scene.model.clumps[0].template.solid
    center = scene.model.clumps[0].mass_props.center
    turned = []
    for k in range(res.frame_count):
        assert set(res.frame_parts[k]) == set(PARTS) | {SURFACES}
        surf, clumps = res.read_frame(k, SURFACES), res.read_frame(k, "clumps")
        q, x = np.asarray(clumps.point_data["quaternion"][0]), np.asarray(clumps.points[0])
        expect = x + (mesh.vertices - center) @ quat_to_matrix(q / np.linalg.norm(q)).T
        assert np.allclose(surf.points, expect, atol=1e-12)  # the pose, to round-off
        assert np.array_equal(surf.cells_dict["triangle"], mesh.faces)
        assert np.all(surf.point_data["body"] == 0)
        # its lowest point on the table (the body rests on its base or an edge of it): within an overlap
        assert surf.points[:, 2].min() == pytest.approx(0.0, abs=1e-3)
        turned.append(math.degrees(math.acos(np.clip(quat_to_matrix(q / np.linalg.norm(q))[2, 2], -1, 1))))
    assert turned[0] == pytest.approx(3.0, abs=1e-6) and min(turned) < 2.0  # it rocks back from its tilt


def test_render_draws_the_surface(stele_run, tmp_path):
    """dem render: the surface in place of the spheres (far fewer triangles than a cloud of sphere glyphs,
    the same picture size), and with --spheres the spheres too."""
    from dem.output.render import can_render

    ok, why = can_render()
    if not ok:
        pytest.skip(f"off-screen rendering unavailable: {why}")
    from dem.output.render import FrameRenderer

    out, _scene = stele_run
    res = load_results(out)
    r = FrameRenderer(res, size=(200, 160))
    try:
        r.image(0)
        actors = set(r.plotter.actors)
        assert "surfaces" in actors and "spheres" not in actors
    finally:
        r.close()
    r = FrameRenderer(res, size=(200, 160), spheres=True)
    try:
        img = r.image(0)
        assert {"surfaces", "spheres"} <= set(r.plotter.actors) and img.shape == (160, 200, 3)
    finally:
        r.close()


def test_no_surfaces_part_without_mesh_bodies(tmp_path, ti_cpu):
    from dem.output.paraview import VtkWriter
    from dem.run.driver import run_scene

    scene = build_scene("pena_block", {"r_core": 0.05, "r_base": 0.02, "base_zone": 0.04, "top_zone": 0.0})
    out = tmp_path / "p"
    run_scene(scene, out_dir=out, frame_dt=1e-4, t_end=2e-4, frame_writer=lambda: VtkWriter(out, scene.model),
              progress=False, plots=False)
    res = load_results(tmp_path / "p")
    assert all(SURFACES not in parts for parts in res.frame_parts)
