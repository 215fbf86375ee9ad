"""Meshes in and bad meshes out (issue 31, "Bad input"): files read in any of meshio's formats in the units
given; an open mesh, inconsistent or inverted normals, a self-intersecting surface, several parts, no volume,
a mesh in millimetres read as metres, spheres larger than the body or its thin parts, an unreadable, unknown
or missing file: one ValueError naming the mesh and what is wrong (and, through ``dem run``, one
``dem: error:`` line, before any output folder exists). A valid mesh that is non-convex where it rests is a
note, not an error.
"""

import numpy as np
import pytest

from dem.cli.main import main
from dem.model.mesh_clump import mesh_clump
from dem.model.mesh_file import TriMesh, load_mesh
from dem.model.mesh_shapes import box_mesh, loft_mesh, prism_mesh, write_stl
from tests._reliability import QUIET, one_error_line

BOX = box_mesh(0.3, 0.6, 0.3)


def _plus_prism(arm: float, half: float, height: float) -> TriMesh:
    """A prism on a plus sign (arms `arm` [m] thick reaching `half` [m] from the centre): star-shaped about
    its centre, with parts thinner than its bounding box."""
    a, b = arm / 2, half
    ring = np.array([(b, -a), (b, a), (a, a), (a, b), (-a, b), (-a, a), (-b, a), (-b, -a), (-a, -a), (-a, -b),
                     (a, -b), (a, -a)])
    return loft_mesh([(0.0, ring), (height, ring)], source="plus prism")


def _variant(kind: str) -> TriMesh:
    v, f = BOX.vertices.copy(), BOX.faces.copy()
    if kind == "open":
        return TriMesh(v, f[1:], "open box")
    if kind == "flipped face":
        f[3] = f[3][::-1]
        return TriMesh(v, f, "box with a flipped face")
    if kind == "inside out":
        return TriMesh(v, f[:, ::-1], "inside-out box")
    if kind == "two parts":
        return TriMesh(np.concatenate([v, v + [1.0, 0.0, 0.0]]), np.concatenate([f, f + len(v)]), "two boxes")
    if kind == "flat":
        p = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.3, 0.4, 0]], float)  # a tetrahedron of four coplanar points
        return TriMesh(p, np.array([[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]]), "flat")
    if kind == "self-intersecting":
        k = int(np.argmax(v.sum(axis=1)))
        v[k] = [0.05, 0.02, -0.6]  # a top corner pushed through the bottom face
        return TriMesh(v, f, "poked box")
    if kind == "non-manifold":  # two tetrahedra sharing one edge only
        p = np.array([[0, 0, 0], [0, 0, 1], [1, 0, 0.5], [0.5, 1, 0.5], [-1, 0, 0.5], [-0.5, -1, 0.5]], float)
        tets = [(0, 1, 2, 3), (0, 1, 4, 5)]
        faces = []
        for t in tets:
            q = p[list(t)]
            for tri in ((0, 1, 2), (0, 3, 1), (0, 2, 3), (1, 3, 2)):
                n = np.cross(q[tri[1]] - q[tri[0]], q[tri[2]] - q[tri[0]])
                out = (q[tri[0]] - q.mean(axis=0)) @ n > 0
                faces.append([t[i] for i in (tri if out else tri[::-1])])
        return TriMesh(p, np.array(faces), "two tetrahedra on an edge")
    raise AssertionError(kind)


BAD = [
    ("open", "is open (not watertight): 3 edges belong to one face only"),
    ("flipped face", "is not consistently oriented: 3 edges are run the same way by both their faces"),
    ("inside out", "has inverted normals: its faces point inward (signed volume -0.054 m³)"),
    ("two parts", "has 2 disconnected parts"),
    ("flat", "encloses no volume"),
    ("self-intersecting", "is self-intersecting or has faces inside out: the vertical line at"),
    ("non-manifold", "is not a manifold surface: 1 edges belong to three or more faces"),
]


@pytest.mark.parametrize("kind, words", BAD)
def test_bad_meshes_are_refused_in_one_line_naming_the_mesh(kind, words):
    mesh = _variant(kind)
    with pytest.raises(ValueError) as info:
        mesh_clump(mesh, r_core=0.05, r_surface=0.02)
    msg = str(info.value)
    assert msg.startswith(f"mesh {mesh.source}") and words in msg and "\n" not in msg, msg


def test_millimetres_read_as_metres_name_the_unit(tmp_path):
    """A 0.3 × 0.6 × 0.3 m box written in millimetres: refused as a body 600 m high, naming units=mm; read
    with units=mm it is the box; units=m keeps the metres (a body that big is the user's to ask for)."""
    path = write_stl(tmp_path / "box_mm.stl", TriMesh(BOX.vertices * 1000.0, BOX.faces))
    with pytest.raises(ValueError, match=r"box_mm.stl: 600 m across read as metres.*give units=mm"):
        load_mesh(path)
    assert np.allclose(np.ptp(load_mesh(path, units="mm").vertices, axis=0), [0.3, 0.3, 0.6])
    assert np.ptp(load_mesh(path, units="m").vertices, axis=0).max() == pytest.approx(600.0)
    with pytest.warns(UserWarning, match="if its coordinates are in m, give units=m"):
        load_mesh(write_stl(tmp_path / "box_m.stl", BOX), units="mm")  # metres read as millimetres: 0.6 mm
    with pytest.raises(ValueError, match="units must be one of m, cm, mm, in, ft"):
        load_mesh(path, units="furlong")


@pytest.mark.parametrize("name, content, words", [
    ("garbage.stl", b"solid nonsense\n not a facet at all\n" * 3, "cannot be read as .stl"),
    ("points.xyz", b"0 0 0\n1 1 1\n", "unknown file type '.xyz'; known: "),
    ("missing.stl", None, "no such file"),
])
def test_unreadable_unknown_and_missing_files(tmp_path, name, content, words):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ValueError) as info:
        mesh_clump(path, r_core=0.05)
    assert str(info.value).startswith(f"mesh {path}") and words in str(info.value), str(info.value)


def test_spheres_larger_than_the_body_or_its_thin_parts():
    """r_surface over half the smallest extent: refused before any packing; a plus sign whose arms (20 mm) are
    thinner than the spheres (2 × 15 mm) while its bounding box is not: refused after the packing measured
    what it leaves out (its arms), naming the thickness there and a radius that fits."""
    with pytest.raises(ValueError, match=r"r_surface=0.2 m must be <= half the body's smallest extent, 0.15 m"):
        mesh_clump(BOX, r_core=0.2, r_surface=0.2)
    plus = _plus_prism(0.02, 0.25, 0.3)
    with pytest.raises(ValueError) as info:
        mesh_clump(plus, r_core=0.015, r_surface=0.015)
    msg = str(info.value)
    assert "r_surface=0.015 m is too large for mesh plus prism: parts of it thinner than its spheres" in msg, msg
    thick = float(msg.split("the body is about ")[1].split(" m thick")[0])
    assert thick == pytest.approx(0.02, rel=0.05)  # the arms' thickness, by the largest ball inside them
    tpl = mesh_clump(plus, r_core=0.008, r_surface=0.008)  # spheres that fit the arms
    assert tpl.sphere_count > 0 and not any("%" in n and "farther" in n for n in tpl.solid.notes if "1 %" in n)


@pytest.mark.parametrize("kwargs, words", [
    (dict(r_core=0.0), "r_core must be a finite number > 0"),
    (dict(r_core=0.05, r_surface=-0.01), "r_surface must be a finite number > 0"),
    (dict(r_core=0.05, edges="sharp"), "edges must be one of true, rounded"),
    (dict(r_core=0.05, r_surface=0.02, surface_zone=0.03), "surface_zone=0.03 m must hold one sphere layer"),
    (dict(r_core=0.05, spacing_ratio=2.0), r"spacing_ratio must be in \(0, 1\]"),
    (dict(r_core=0.05, joints=("side",)), "joints must name faces among base, top"),
    (dict(r_core=0.05, joints=((1.0, 1.0, 0.0),)),
     r"has no flat face on its convex hull facing \(0.707107, 0.707107, 0\)"),
])
def test_bad_parameters_are_refused(kwargs, words):
    with pytest.raises(ValueError, match=words):
        mesh_clump(BOX, **kwargs)


def test_formats_and_units_give_one_body(tmp_path):
    """The stele as STL (binary, float32), OBJ and PLY (meshio), and in millimetres: the same solid (to the
    STL's float32 rounding, 6e-8) and the same base layer of spheres."""
    import meshio

    poly = [(-0.15, 0.0), (0.15, 0.0), (0.10, 1.0), (-0.10, 1.0)]
    stele = prism_mesh(poly, 0.5)
    m = meshio.Mesh(stele.vertices, [("triangle", stele.faces)])
    paths = [write_stl(tmp_path / "s.stl", stele)]
    for ext in ("obj", "ply"):
        meshio.write(tmp_path / f"s.{ext}", m)
        paths.append(tmp_path / f"s.{ext}")
    mm = meshio.Mesh(stele.vertices * 1000.0, [("triangle", stele.faces)])
    meshio.write(tmp_path / "s_mm.ply", mm)
    ref = mesh_clump(stele, r_core=0.05, r_surface=0.02)
    base = np.sort(np.round(ref.centers[ref.zone == 0], 6), axis=0)
    for path, units in [(p, None) for p in paths] + [(tmp_path / "s_mm.ply", "mm")]:
        tpl = mesh_clump(path, r_core=0.05, r_surface=0.02, units=units)
        assert tpl.solid.volume == pytest.approx(ref.solid.volume, rel=2e-7), path
        assert np.allclose(np.sort(np.round(tpl.centers[tpl.zone == 0], 6), axis=0), base, atol=2e-6), path


def test_non_convex_base_is_a_note_not_an_error():
    """A body on two feet (an arch-like prism: the base is two pieces): packed, with a note saying how much of
    its footprint's convex hull its base fills."""
    poly = [(-0.3, 0.0), (-0.1, 0.0), (-0.1, 0.2), (0.1, 0.2), (0.1, 0.0), (0.3, 0.0), (0.3, 0.5), (-0.3, 0.5)]
    ring = np.array(poly)
    # a loft in x–y extruded along z, then turned so that the legs stand on z = 0
    legs = loft_mesh([(-0.15, ring), (0.15, ring)], source="two legs")
    v = legs.vertices[:, [0, 2, 1]] * [1, -1, 1]  # (x, y, z) → (x, −z, y): a proper rotation about x
    tpl = mesh_clump(TriMesh(v, legs.faces, "two legs"), r_core=0.04, r_surface=0.02)
    notes = [n for n in tpl.solid.notes if "non-convex where it rests" in n]
    assert len(notes) == 1 and "fills 66.7 % of the convex hull" in notes[0], tpl.solid.notes


def test_cli_refuses_a_bad_mesh_in_one_line(ti_cpu, tmp_path, capsys):
    """``dem run mesh_body --set mesh=open.stl``: exit 2, one ``dem: error:`` line naming the file, no folder."""
    path = write_stl(tmp_path / "open.stl", _variant("open"))
    out = tmp_path / "run"
    capsys.readouterr()
    code = main(["run", "mesh_body", *QUIET, "--out", str(out), "--set", f"mesh={path}"])
    err = capsys.readouterr().err
    line = one_error_line(err)
    assert code == 2 and err.count("dem: error:") == 1 and f"mesh {path} is open (not watertight)" in line, err
    assert not out.exists()


def _write_gltf(path, vertices, faces):
    """A minimal glTF 2.0 file: one mesh of float32 positions and uint32 indices in a data-URI buffer."""
    import base64
    import json

    pos = np.asarray(vertices, np.float32)
    idx = np.asarray(faces, np.uint32).reshape(-1)
    blob = pos.tobytes() + idx.tobytes()
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
           "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
           "buffers": [{"byteLength": len(blob),
                        "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
           "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": pos.nbytes},
                           {"buffer": 0, "byteOffset": pos.nbytes, "byteLength": idx.nbytes}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "count": len(pos), "type": "VEC3",
                          "min": pos.min(axis=0).tolist(), "max": pos.max(axis=0).tolist()},
                         {"bufferView": 1, "componentType": 5125, "count": len(idx), "type": "SCALAR"}]}
    path.write_text(json.dumps(doc))
    return path


def test_gltf_is_read_with_its_y_axis_up(tmp_path):
    """glTF (through pyvista): a stele written +y up, as glTF's specification has it, stands on z in dem, with its
    volume (a proper rotation, the faces still outward)."""
    pytest.importorskip("pyvista", reason="glTF is read with pyvista (the vis extra)")
    stele = prism_mesh([(-0.15, 0.0), (0.15, 0.0), (0.10, 1.0), (-0.10, 1.0)], 0.5)
    v = stele.vertices
    y_up = np.column_stack([v[:, 0], v[:, 2], -v[:, 1]])  # dem's (x, y, z) → glTF's (x, z, −y)
    path = _write_gltf(tmp_path / "stele.gltf", y_up, stele.faces)
    mesh = load_mesh(path)
    assert np.allclose(np.ptp(mesh.vertices, axis=0), [0.3, 0.5, 1.0], atol=1e-6)
    tpl = mesh_clump(path, r_core=0.05, r_surface=0.02)
    assert tpl.solid.volume == pytest.approx(0.125, rel=1e-6)
