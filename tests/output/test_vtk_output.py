"""ParaView output (dem.output.paraview): every file reads back with the snapshot's arrays, the collection's
times are the frames' and the history's, and a run stopped at any frame leaves valid files.

Arrays are float64 on both sides, written binary (raw appended, or zlib through meshio), so they must
come back bit for bit: exact equality, no tolerance. Times: the .pvd holds repr(t), exact; the history holds
the rows' times (history.csv, from --csv, '%.10g'), so a frame time is found there to HISTORY_TIME_TOL.
"""

from __future__ import annotations

import re

import meshio
import numpy as np
import pytest

from dem.output.paraview import PARTS, PVD_NAME, VtkWriter, expand_to_all_spheres
from dem.output.results import read_pvd, read_vtu
from dem.output.vtu import pvd_text, write_vtu
from tests._postproc_case import FRAME_DT, T_END, postproc_run_fixture  # noqa: F401

HISTORY_TIME_TOL = 1e-9  # [s]: %.10g of t ≤ 0.03 s rounds at ~1e-12 s; the frame grid is 1e-2 s


def expected_arrays(frame) -> dict[str, dict[str, np.ndarray]]:
    """What each part's file must hold for `frame`: points, then point data / cell data by name."""
    nc = len(frame.contact_fn)
    cpts = np.empty((2 * nc, 3))
    cpts[0::2], cpts[1::2] = frame.contact_point, frame.centers[frame.contact_sphere]
    return {
        "spheres": {"points": frame.centers, "body": frame.clump_id, "radius": frame.radii, "velocity": frame.velocity,
                    "clump_id": frame.clump_id, "contact_force": frame.contact_force,
                    "angular_velocity": frame.angular_velocity},
        "walls": {"points": frame.wall_corners.reshape(-1, 3), "velocity": frame.wall_velocity,
                  "wall_id": np.arange(len(frame.wall_corners))},
        "contacts": {"points": cpts, "sphere_id": frame.contact_sphere, "other_sphere_id": frame.contact_other,
                     "body_id": frame.contact_body, "other_body_id": frame.contact_other_body,
                     "wall_id": frame.contact_wall, "normal": frame.contact_normal, "overlap": frame.contact_overlap,
                     "force": frame.contact_total_force, "normal_force": frame.contact_normal_force,
                     "shear_force": frame.contact_shear,
                     "normal_dashpot_force": frame.contact_fn_dashpot[:, None] * frame.contact_normal,
                     "shear_dashpot_force": frame.contact_shear_dashpot, "fn": frame.contact_fn},
        "clumps": {"points": frame.clump_position, "body": np.arange(len(frame.clump_position)),
                   "velocity": frame.clump_velocity,
                   "angular_velocity": frame.clump_omega, "quaternion": frame.clump_quaternion,
                   "clump_id": np.arange(len(frame.clump_position))},
    }


def mesh_arrays(m: meshio.Mesh) -> dict[str, np.ndarray]:
    out = {"points": m.points} | dict(m.point_data)
    return out | {k: np.concatenate(v) for k, v in m.cell_data.items()}


def test_every_file_reads_back_with_the_same_arrays(postproc_run):
    run = postproc_run
    entries = read_pvd(run.out_dir / PVD_NAME)
    assert len(entries) == len(run.frames) * len(PARTS)
    checked = 0
    for e in entries:
        k = int(re.search(r"_(\d+)\.vtu$", e["file"].name).group(1))
        frame = run.frames[k]
        want = expected_arrays(frame)[e["name"]]
        if e["name"] == "contacts" and len(frame.contact_fn) == 0:
            m = read_vtu(e["file"])  # meshio 5.3 cannot read empty meshes: our reader handles them
        else:
            m = meshio.read(e["file"])  # plain meshio, as a user would
        got = mesh_arrays(m)
        assert set(got) == set(want), (e["file"], sorted(got))
        for name, a in want.items():
            assert got[name].shape == np.shape(a), (e["file"], name)
            assert np.array_equal(got[name], a), (e["file"], name)
        cell_type = {"spheres": "vertex", "clumps": "vertex", "walls": "quad", "contacts": "line"}[e["name"]]
        assert [c.type for c in m.cells] == [cell_type]
        checked += 1
    assert checked == 4 * len(run.frames) >= 16


def test_frames_cover_both_clumps_walls_and_contacts(postproc_run):
    """The case exercises what the format must carry: two clumps, a facet and an infinite plane, frames
    without contacts and with them."""
    f0, f1 = postproc_run.frames[0], postproc_run.frames[-1]
    assert len(f0.contact_fn) == 0 and len(f1.contact_fn) > 0
    assert set(np.unique(f1.clump_id)) == {0, 1}
    assert f1.wall_corners.shape == (2, 4, 3)
    assert np.all(f1.contact_sphere >= 0)
    m = read_vtu(postproc_run.out_dir / "vtk" / "contacts_000000.vtu")
    assert len(m.points) == 0 and m.cell_data["fn"][0].shape == (0,)
    assert m.cell_data["normal"][0].shape == (0, 3)


def test_pvd_times_match_frames_and_history(postproc_run):
    run = postproc_run
    entries = read_pvd(run.out_dir / PVD_NAME)
    times = sorted({e["t"] for e in entries})
    assert times == [f.t for f in run.frames]  # exact: repr(t) in the file
    assert np.allclose(times, np.arange(len(times)) * FRAME_DT, rtol=0, atol=1e-12)
    assert times[-1] == pytest.approx(T_END, abs=1e-12)
    assert times[-1] == pytest.approx(run.result.summary["t_end"], abs=1e-12)
    hist_t = np.asarray(run.result.history["t"])
    for t in times:
        if t <= hist_t[-1]:  # the history ends one record before t_end (records are taken before steps)
            assert np.min(np.abs(hist_t - t)) < HISTORY_TIME_TOL, t
    # every part of every frame, each once
    for t in times:
        assert sorted(e["name"] for e in entries if e["t"] == t) == sorted(PARTS)


def test_interrupted_run_leaves_a_valid_collection(postproc_run):
    """After each write, run.pvd parses and lists exactly the frames so far, every listed file exists;
    no temporary file is left behind."""
    run = postproc_run
    for k, entries in enumerate(run.pvd_after_write):
        assert sorted({e["t"] for e in entries}) == [f.t for f in run.frames[: k + 1]]
        assert all(e["file"].exists() for e in entries)
    leftovers = [p.name for p in run.out_dir.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []


def test_writer_in_a_used_folder_replaces_the_old_frames(tmp_path, postproc_run):
    run = postproc_run
    w = VtkWriter(tmp_path, run.model)
    for f in run.frames:
        w.write(f)
    w.close()
    assert len(list((tmp_path / "vtk").glob("*.vtu"))) == 4 * len(run.frames)
    with VtkWriter(tmp_path, run.model) as w2:
        w2.write(run.frames[1])
    assert sorted(p.name for p in (tmp_path / "vtk").glob("*.vtu")) == [f"{p}_000000.vtu" for p in sorted(PARTS)]
    assert [e["t"] for e in read_pvd(tmp_path / PVD_NAME)] == [run.frames[1].t] * 4


def test_collection_rewrites_follow_pvd_interval(tmp_path, postproc_run):
    """Between rewrites run.pvd lists a prefix of the frames written: what a run killed then leaves."""
    run = postproc_run
    lazy = VtkWriter(tmp_path / "lazy", run.model, pvd_interval=1e9)
    eager = VtkWriter(tmp_path / "eager", run.model, pvd_interval=0.0)
    for k, f in enumerate(run.frames):
        lazy.write(f)
        eager.write(f)
        assert read_pvd(lazy.pvd_path) == []  # valid, and empty until flushed
        assert sorted({e["t"] for e in read_pvd(eager.pvd_path)}) == [g.t for g in run.frames[: k + 1]]
    lazy.close()
    assert (tmp_path / "lazy" / PVD_NAME).read_text() == (tmp_path / "eager" / PVD_NAME).read_text()
    with pytest.raises(ValueError, match="pvd_interval must be >= 0"):
        VtkWriter(tmp_path, run.model, pvd_interval=-1)


def test_zlib_encoding_holds_the_same_arrays(tmp_path, postproc_run):
    """meshio's compressed files and the raw ones read back to the same meshes."""
    run = postproc_run
    with VtkWriter(tmp_path, run.model, encoding="zlib") as w:
        for f in run.frames:
            w.write(f)
    for k in range(len(run.frames)):
        for part in PARTS:
            name = f"vtk/{part}_{k:06d}.vtu"
            a, b = mesh_arrays(read_vtu(tmp_path / name)), mesh_arrays(read_vtu(run.out_dir / name))
            assert set(a) == set(b) and all(np.array_equal(a[n], b[n]) for n in a), name
    assert 'compressor="vtkZLibDataCompressor"' in (tmp_path / "vtk/spheres_000001.vtu").read_text(errors="replace")


def test_raw_vtu_round_trip_of_every_supported_type(tmp_path):
    pts = np.arange(12.0).reshape(4, 3)
    arrays = {"f8": np.linspace(0, 1, 4), "f4": np.ones((4, 2), np.float32), "i8": np.arange(4),
              "i4": -np.arange(4, dtype=np.int32), "u1": np.arange(4, dtype=np.uint8), "odd name & <x>": np.zeros(4)}
    for cell, cells in (("vertex", [[0], [1], [2], [3]]), ("line", [[0, 1], [2, 3]]), ("quad", [[0, 1, 2, 3]])):
        m = meshio.Mesh(pts, [(cell, np.array(cells))], point_data=arrays,
                        cell_data={"c": [np.arange(len(cells), dtype=np.float64)]})
        write_vtu(tmp_path / f"{cell}.vtu", m)
        r = meshio.read(tmp_path / f"{cell}.vtu")
        assert np.array_equal(r.points, pts) and r.cells[0].type == cell and np.array_equal(r.cells[0].data, cells)
        for name, a in arrays.items():
            assert r.point_data[name].dtype == a.dtype and np.array_equal(r.point_data[name], a), name
        assert np.array_equal(r.cell_data["c"][0], np.arange(len(cells)))
    # sizes chosen at random: meshio's raw reader must find every block whatever the offsets
    rng = np.random.default_rng(6)
    dtypes = [np.float64, np.float32, np.int64, np.int32, np.uint8]
    for trial in range(40):
        n = int(rng.integers(1, 40))
        shapes = [(n,) if rng.random() < 0.6 else (n, int(rng.integers(2, 5))) for _ in range(rng.integers(0, 6))]
        data = {f"a{j}": (rng.random(sh) * 100).astype(dtypes[rng.integers(5)]) for j, sh in enumerate(shapes)}
        m = meshio.Mesh(rng.random((n, 3)), [("vertex", np.arange(n).reshape(n, 1))], point_data=data)
        write_vtu(tmp_path / "r.vtu", m)
        r = meshio.read(tmp_path / "r.vtu")
        assert np.array_equal(r.points, m.points), trial
        assert all(np.array_equal(r.point_data[k], v) for k, v in data.items()), trial
    with pytest.raises(ValueError, match="one cell block of a type in"):
        write_vtu(tmp_path / "x.vtu", meshio.Mesh(pts, [("tetra", np.array([[0, 1, 2, 3]]))]))
    with pytest.raises(ValueError, match="array 'b': dtype must be one of"):
        write_vtu(tmp_path / "x.vtu", meshio.Mesh(pts, [("vertex", np.arange(4).reshape(4, 1))],
                                                  point_data={"b": np.ones(4, bool)}))


def test_a_new_writer_leaves_an_empty_valid_collection(tmp_path, postproc_run):
    VtkWriter(tmp_path, postproc_run.model)
    assert read_pvd(tmp_path / PVD_NAME) == []


def test_all_spheres_matches_the_engines_snapshot(tmp_path, postproc_run):
    """A hull-only frame completed by the writer equals snapshot(all_spheres=True) of the same state."""
    from dem.output.snapshot import snapshot
    from dem.physics.simulation import Simulation

    model = postproc_run.model
    sim = Simulation(model, dt=1e-4, history_every=10)
    sim.advance(150)  # 15 ms: the falling block has landed, contacts on both clumps' spheres
    hull, full = snapshot(sim), snapshot(sim, all_spheres=True)
    assert len(full.radii) == model.ball_count > len(hull.radii) == model.hull_count
    got = expand_to_all_spheres(hull, model)
    for name in ("radii", "clump_id", "contact_sphere", "contact_other"):
        assert np.array_equal(getattr(got, name), getattr(full, name)), name
    # interior spheres are placed from the quaternion, the engine uses its rotation matrix: round-off
    for name in ("centers", "velocity", "angular_velocity", "contact_force"):
        assert np.allclose(getattr(got, name), getattr(full, name), rtol=0, atol=1e-12), name
    with VtkWriter(tmp_path, model, all_spheres=True) as w:
        w.write(hull)
    m = meshio.read(tmp_path / "vtk" / "spheres_000000.vtu")
    assert len(m.points) == model.ball_count
    assert np.array_equal(m.point_data["radius"], full.radii)


def test_bad_arguments_are_named(tmp_path, postproc_run):
    with pytest.raises(ValueError, match="encoding must be one of"):
        VtkWriter(tmp_path, postproc_run.model, encoding="gzip")
    with pytest.raises(TypeError, match="all_spheres"):
        VtkWriter(tmp_path, postproc_run.model, all_spheres="yes")
    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(ValueError, match="out_dir must be a folder"):
        VtkWriter(f, postproc_run.model)
    w = VtkWriter(tmp_path / "a", postproc_run.model)
    w.close()
    with pytest.raises(RuntimeError, match="after close"):
        w.write(postproc_run.frames[0])
    with pytest.raises(ValueError, match="part must be one of"):
        w.frame_path(0, "balls")


def test_pvd_text_escapes_and_round_trips_times(tmp_path):
    t = 0.1 + 0.2  # 0.30000000000000004: repr keeps every digit
    (tmp_path / "c.pvd").write_text(pvd_text([(t, 0, 'a"b', "x&y.vtu")]))
    (e,) = read_pvd(tmp_path / "c.pvd")
    assert e["t"] == t and e["name"] == 'a"b' and e["file"].name == "x&y.vtu"
