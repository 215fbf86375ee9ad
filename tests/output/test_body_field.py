"""Each body in its own colour: the frames' ``body`` array (dem.output.paraview) holds one id per body, the
same on every sphere of that body, is the file's active scalars (what ParaView and pyvista colour by when the
file is opened), and vtk/bodies.csv names the ids; ``dem render`` colours by it by default. On the shared
two-body run of tests/_postproc_case.py (no run of its own). ParaView's own reading: tests/output/test_paraview.py.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from dem.output.paraview import BODIES_NAME, VTK_DIR, read_bodies_csv
from dem.output.results import read_pvd, read_vtu
from tests._postproc_case import postproc_run_fixture  # noqa: F401


def _spheres(run):
    return [e for e in read_pvd(run.out_dir / "run.pvd") if e["name"] == "spheres"]


def test_every_sphere_carries_its_body(postproc_run):
    model = postproc_run.model
    hull = [int(np.count_nonzero(cs.template.hull)) for cs in model.clumps]
    for e, frame in zip(_spheres(postproc_run), postproc_run.frames):
        m = read_vtu(e["file"])
        body = m.point_data["body"]
        assert body.dtype == np.int32
        # one id per body, constant over that body's spheres: the frame holds each body's hull spheres in a run
        assert np.array_equal(body, np.repeat(np.arange(model.clump_count), hull))
        assert np.array_equal(body, frame.clump_id)
        # and the id is that body's: every sphere lies within its body's bounding radius of the body's centre
        centre = np.asarray(frame.clump_position)[body]
        reach = np.array([cs.template.bounding_radius(cs.mass_props.center) for cs in model.clumps])[body]
        assert np.all(np.linalg.norm(m.points - centre, axis=1) <= reach * (1 + 1e-12))


def test_body_is_the_active_scalars_and_named_in_bodies_csv(postproc_run):
    first = _spheres(postproc_run)[0]["file"]
    head = first.read_bytes().split(b"<AppendedData")[0].decode()
    assert re.search(r'<PointData Scalars="body">', head)
    clumps = first.with_name(first.name.replace("spheres", "clumps"))
    assert '<PointData Scalars="body">' in clumps.read_bytes().split(b"<AppendedData")[0].decode()
    names = read_bodies_csv(postproc_run.out_dir / VTK_DIR / BODIES_NAME)
    assert names == {k: cs.name for k, cs in enumerate(postproc_run.model.clumps)} == {0: "tall", 1: "low"}


def test_pyvista_colours_by_body(postproc_run):
    pv = pytest.importorskip("pyvista", reason="pyvista is in the vis extra (pip install -e '.[vis]')")
    mesh = pv.read(_spheres(postproc_run)[-1]["file"])
    assert mesh.active_scalars_name == "body"
    assert sorted(np.unique(mesh.active_scalars)) == [0, 1]


def test_render_defaults_to_body(postproc_run):
    pytest.importorskip("pyvista", reason="pyvista is in the vis extra (pip install -e '.[vis]')")
    from dem.output.render import FrameRenderer
    from dem.output.results import load_results

    r = FrameRenderer(load_results(postproc_run.out_dir), size=(64, 48))
    try:
        assert (r.field, r.body_names) == ("body", ["tall", "low"])
    finally:
        r.close()
