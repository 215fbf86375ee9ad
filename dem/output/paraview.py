"""ParaView output: one set of VTU files per frame and ``.pvd`` collections that tie them to simulated time.

Layout of an output folder (``K`` is the frame number, 6 digits)::

    run.pvd                    the collection: every part of every frame with its time [s] (ParaView and
                               pyvista read it as a multiblock per time: spheres, walls, contacts, clumps)
    vtk/spheres_K.vtu          spheres as vertex cells; point data body (the sphere's body: its index in
                               the model, the active scalars, so that ParaView and pyvista colour each body
                               apart when the file is opened), radius [m], velocity [m/s], clump_id (the same
                               index, kept for older readers), contact_force [N], angular_velocity [rad/s]
                               (the sphere's clump's ω)
    vtk/walls_K.vtu            walls as quads (infinite planes as squares); cell data velocity [m/s], wall_id
    vtk/contacts_K.vtu         the contact network, one line cell per touching pair (sphere–wall or sphere–
                               sphere of two bodies) from the contact point to sphere a's centre (point 2k is
                               the contact point, 2k+1 the centre). Cell data, on sphere a (the other side
                               receives the opposite): sphere_id, other_sphere_id (−1: wall), body_id,
                               other_body_id (−1: wall), wall_id (−1: body–body); normal (unit, from the wall
                               or sphere b towards a); overlap [m]; force = normal_force + shear_force [N]
                               (vectors, elastic + dashpot); normal_dashpot_force, shear_dashpot_force [N]
                               (their dashpot parts); fn [N] (normal force along the normal, for colouring
                               and glyph scaling). Summed over an interface they give its probe columns
                               (dem.output.snapshot).
    vtk/clumps_K.vtu           one vertex per clump at its centre of mass; point data body (active
                               scalars), velocity [m/s], angular_velocity [rad/s], quaternion (w, x, y, z),
                               clump_id
    vtk/surfaces_K.vtu         (models with bodies from meshes, dem.model.mesh_clump) each such body's own
                               surface, its mesh's triangles moved by the body's pose (x = x_G + R (x₀ − x₀_G),
                               the template's vertices x₀ about its centre of mass x₀_G): what the body looks
                               like, beside its spheres; point data body (active scalars), velocity [m/s]
                               (v + ω × r)
    vtk/bodies.csv             the bodies' names: columns body (the index in the frames' ``body`` arrays and
                               the contacts' body_id) and name (the model's; summary.json's ``bodies``)

In ParaView: open ``run.pvd``; the spheres and clumps show coloured by ``body`` (for one flat colour per
body, tick "Interpret Values As Categories" in the colour map editor); for spheres of their true size apply
Glyph (Glyph Type Sphere, Scale Array ``radius``, Scale Factor 2: the glyph's own radius is 0.5), or use the
Point Gaussian representation with Scale Array ``radius``; Extract Block picks one part.

Every file, the collection included, is written to a temporary name and moved over its final name in one
step (os.replace), so a run stopped at any moment leaves valid files and a valid ``.pvd`` listing the
frames written up to its last rewrite (``pvd_interval``, 1 s of wall time by default). Each part is built
as a meshio.Mesh and written either raw (default: binary appended data, dem.output.vtu, ~1 ms a frame of 4,400
spheres and ~125 bytes a sphere) or by meshio with zlib (``encoding="zlib"``: files 3-5 times smaller,
~15-20 ms a frame, too slow for the 10 % budget at DEFAULT_FRAME_RATE on this engine). Arrays are float64
as the engine holds them, so a frame read back equals the snapshot bit for bit. A part with nothing in it
(no contact yet) is a valid empty VTU; meshio 5.3 cannot read empty meshes back, so use
:func:`dem.output.results.read_vtu`, which can.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING

import meshio
import numpy as np

from ..model.model import quat_to_matrix
from .files import atomic_path, atomic_write
from .vtu import pvd_text, write_vtu

if TYPE_CHECKING:  # dem.output.snapshot imports Taichi, which reading and writing files does not need
    from .snapshot import Frame

PARTS = ("spheres", "walls", "contacts", "clumps")
SURFACES = "surfaces"
"""The part of the bodies from meshes (module docstring), written where a model has any."""
ALL_PARTS = PARTS + (SURFACES,)
PVD_NAME = "run.pvd"
VTK_DIR = "vtk"
# frames per simulated second when none is asked for: ≳ 7 frames per rocking cycle of the Peña block
# (periods ≳ 0.7 s at Itiola & El Shamy's (2024) amplitudes); see benchmarks/bench_vtk_overhead.py for what it costs
DEFAULT_FRAME_RATE = 10.0
ENCODINGS = ("raw", "zlib")


def sphere_mesh(frame: Frame) -> meshio.Mesh:
    """Spheres of `frame` as vertex cells with their point data."""
    n = len(frame.radii)
    body = np.asarray(frame.clump_id, np.int32).reshape(n)
    return meshio.Mesh(
        np.ascontiguousarray(frame.centers, float).reshape(n, 3),
        [("vertex", np.arange(n, dtype=np.int64).reshape(n, 1))],
        point_data={
            "body": body,
            "radius": np.asarray(frame.radii, float),
            "velocity": np.asarray(frame.velocity, float).reshape(n, 3),
            "clump_id": body,
            "contact_force": np.asarray(frame.contact_force, float).reshape(n, 3),
            "angular_velocity": np.asarray(frame.angular_velocity, float).reshape(n, 3),
        },
    )


def wall_mesh(frame: Frame) -> meshio.Mesh:
    """Walls of `frame` as quads (corner order as in the snapshot) with cell data."""
    nw = len(frame.wall_corners)
    return meshio.Mesh(
        np.asarray(frame.wall_corners, float).reshape(4 * nw, 3),
        [("quad", np.arange(4 * nw, dtype=np.int64).reshape(nw, 4))],
        cell_data={"velocity": [np.asarray(frame.wall_velocity, float).reshape(nw, 3)],
                   "wall_id": [np.arange(nw, dtype=np.int32)]},
    )


def contact_mesh(frame: Frame) -> meshio.Mesh:
    """The contact network of `frame`: line cells from each contact point to sphere a's centre, with the
    contact's ids, geometry and forces as cell data (module docstring).

    A contact whose sphere is not in the frame (index −1) ends at contact point + normal × the smallest
    radius instead; the engine never produces one (contacts are on hull spheres, which every frame holds).
    """
    nc = len(frame.contact_fn)
    cp = np.asarray(frame.contact_point, float).reshape(nc, 3)
    normal = np.asarray(frame.contact_normal, float).reshape(nc, 3)
    sphere = np.asarray(frame.contact_sphere, np.int64).reshape(nc)
    ok = sphere >= 0
    end = cp + normal * float(np.min(frame.radii) if len(frame.radii) else 0.0)
    end[ok] = np.asarray(frame.centers, float)[sphere[ok]]
    pts = np.empty((2 * nc, 3))
    pts[0::2], pts[1::2] = cp, end
    fn = np.asarray(frame.contact_fn, float).reshape(nc)
    shear = np.asarray(frame.contact_shear, float).reshape(nc, 3)
    normal_force = fn[:, None] * normal

    def ids(a):
        return [np.asarray(a, np.int32).reshape(nc)]

    return meshio.Mesh(
        pts,
        [("line", np.arange(2 * nc, dtype=np.int64).reshape(nc, 2))],
        cell_data={
            "sphere_id": ids(sphere), "other_sphere_id": ids(frame.contact_other), "body_id": ids(frame.contact_body),
            "other_body_id": ids(frame.contact_other_body), "wall_id": ids(frame.contact_wall),
            "normal": [normal],
            "overlap": [np.asarray(frame.contact_overlap, float).reshape(nc)],
            "force": [normal_force + shear],
            "normal_force": [normal_force],
            "shear_force": [shear],
            "normal_dashpot_force": [np.asarray(frame.contact_fn_dashpot, float).reshape(nc, 1) * normal],
            "shear_dashpot_force": [np.asarray(frame.contact_shear_dashpot, float).reshape(nc, 3)],
            "fn": [fn],
        },
    )


def clump_mesh(frame: Frame) -> meshio.Mesh:
    """Clumps of `frame`: one vertex at each centre of mass with the body's velocities and orientation."""
    nc = len(frame.clump_position)
    return meshio.Mesh(
        np.asarray(frame.clump_position, float).reshape(nc, 3),
        [("vertex", np.arange(nc, dtype=np.int64).reshape(nc, 1))],
        point_data={
            "body": np.arange(nc, dtype=np.int32),
            "velocity": np.asarray(frame.clump_velocity, float).reshape(nc, 3),
            "angular_velocity": np.asarray(frame.clump_omega, float).reshape(nc, 3),
            "quaternion": np.asarray(frame.clump_quaternion, float).reshape(nc, 4),
            "clump_id": np.arange(nc, dtype=np.int32),
        },
    )


def expand_to_all_spheres(frame: Frame, model) -> Frame:
    """`frame` (hull spheres only) with every sphere of every clump, in template order per clump.

    Hull spheres keep the snapshot's values; interior spheres are placed from the clump's pose
    (quaternion, so they agree with the engine's rotation matrix to round-off), move with it
    (v + ω × r) and carry no contact force. Contact sphere indices (both sides) are remapped.
    """

    rot = np.stack([quat_to_matrix(q / np.linalg.norm(q)) for q in np.asarray(frame.clump_quaternion, float)])
    pos = np.asarray(frame.clump_position, float)
    centers, radii, cid = model.world_spheres(pos, rot, hull_only=False)
    starts = np.cumsum([0] + [cs.template.sphere_count for cs in model.clumps])
    hull_to_all = np.concatenate([starts[c] + np.flatnonzero(cs.template.hull) for c, cs in enumerate(model.clumps)])
    velocity = frame.clump_velocity[cid] + np.cross(frame.clump_omega[cid], centers - pos[cid])
    force = np.zeros_like(centers)
    centers[hull_to_all], velocity[hull_to_all] = frame.centers, frame.velocity
    force[hull_to_all] = frame.contact_force

    def remap(s):
        s = np.asarray(s, np.int64)
        return np.where(s >= 0, hull_to_all[np.maximum(s, 0)], -1)

    return dataclasses.replace(frame, centers=centers, radii=radii, clump_id=cid, velocity=velocity,
                               angular_velocity=np.asarray(frame.clump_omega, float)[cid], contact_force=force,
                               contact_sphere=remap(frame.contact_sphere), contact_other=remap(frame.contact_other))


def body_surfaces(model) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """The bodies of `model` whose solid is a surface mesh (dem.model.mesh_mass.MeshSolid): (clump index, its
    vertices relative to the centre of mass in the body frame [m], its triangles)."""
    out = []
    for c, cs in enumerate(model.clumps):
        solid = cs.template.solid
        if solid is not None and hasattr(solid, "vertices") and hasattr(solid, "faces"):
            out.append((c, np.asarray(solid.vertices, float) - cs.mass_props.center, np.asarray(solid.faces)))
    return out


def surface_mesh(frame: Frame, surfaces) -> meshio.Mesh:
    """The surfaces (:func:`body_surfaces`) of `frame`'s bodies at their poses, as one triangle mesh."""
    pts, tris, body, vel = [], [], [], []
    n = 0
    for c, local, faces in surfaces:
        q = np.asarray(frame.clump_quaternion[c], float)
        arm = local @ quat_to_matrix(q / np.linalg.norm(q)).T
        pts.append(np.asarray(frame.clump_position[c], float) + arm)
        vel.append(np.asarray(frame.clump_velocity[c], float) + np.cross(np.asarray(frame.clump_omega[c], float), arm))
        tris.append(faces + n)
        body.append(np.full(len(local), c, np.int32))
        n += len(local)
    return meshio.Mesh(np.concatenate(pts), [("triangle", np.concatenate(tris).astype(np.int64))],
                       point_data={"body": np.concatenate(body), "velocity": np.concatenate(vel)})


MESHERS = {"spheres": sphere_mesh, "walls": wall_mesh, "contacts": contact_mesh, "clumps": clump_mesh}
# what a viewer colours a part by when it opens it
ACTIVE_SCALARS = {"spheres": "body", "clumps": "body", SURFACES: "body"}
BODIES_NAME = "bodies.csv"  # in vtk/: the body names of the frames' body ids


def bodies_csv(model) -> bytes:
    """The table of vtk/bodies.csv: ``body,name`` (a name quoted as CSV wants it), a row per body."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["body", "name"])
    w.writerows([k, c.name] for k, c in enumerate(model.clumps))
    return buf.getvalue().encode()


def read_bodies_csv(path: Path | str) -> dict[int, str]:
    """{body id: name} from a vtk/bodies.csv."""
    with open(path, newline="") as fh:
        return {int(r["body"]): r["name"] for r in csv.DictReader(fh)}


class VtkWriter:
    """Frame writer for :func:`dem.run.run_scene`: ``write(frame)`` per frame, ``close()`` at the end.

    Args:
        out_dir: the run's output folder; frames go to ``out_dir/vtk``, the collection to ``out_dir/run.pvd``.
        model: the run's :class:`dem.model.Model` (which parts exist: no walls, no walls part).
        all_spheres: the frames hold every sphere (default: only hull spheres, those that can touch). A
            hull-only frame handed to a writer with all_spheres is completed with
            :func:`expand_to_all_spheres`; the run loop can also ask :func:`dem.output.snapshot.snapshot` for
            all spheres by reading this attribute.
        encoding: ``"raw"`` (default, fast) or ``"zlib"`` (meshio's writer, smaller files, slower).
        pvd_interval: least wall time between two rewrites of ``run.pvd`` [s] (0: after every frame).

    ``run.pvd`` lists a frame only once all its files are in place. It is rewritten after a frame when
    ``pvd_interval`` has passed since the last rewrite, and by ``flush()`` and ``close()``: replacing a
    file by rename makes ext4 write it out at once (~3 ms here), more than the rest of a frame. A run
    stopped at any moment thus leaves a valid collection that may miss the frames of its last
    ``pvd_interval`` seconds (their files are there; ``close()`` lists them).

    Files left by an earlier run in ``out_dir/vtk`` that follow this writer's naming are removed at
    construction, so the folder never mixes two runs; with ``keep_times`` (a run resumed from a checkpoint,
    dem.run.checkpoint) its first len(keep_times) frames, written at those times [s], are kept and continued.
    """

    def __init__(self, out_dir: Path | str, model, *, all_spheres: bool = False, encoding: str = "raw",
                 pvd_interval: float = 1.0, keep_times=()):
        if not isinstance(all_spheres, bool):
            raise TypeError(f"all_spheres must be True or False, got {all_spheres!r}")
        if encoding not in ENCODINGS:
            raise ValueError(f"encoding must be one of {ENCODINGS}, got {encoding!r}")
        if not (pvd_interval >= 0 and math.isfinite(pvd_interval)):
            raise ValueError(f"pvd_interval must be >= 0 [s], got {pvd_interval!r}")
        self.out_dir = Path(out_dir)
        if self.out_dir.exists() and not self.out_dir.is_dir():
            raise ValueError(f"out_dir must be a folder, got the file {self.out_dir}")
        self.model = model
        self.all_spheres = all_spheres
        self.encoding = encoding
        self.pvd_interval = float(pvd_interval)
        self.surfaces = body_surfaces(model)
        self.parts = tuple(p for p in PARTS if p != "walls" or model.wall_count > 0) + \
            ((SURFACES,) if self.surfaces else ())
        self.vtk_dir = self.out_dir / VTK_DIR
        self.vtk_dir.mkdir(parents=True, exist_ok=True)
        keep = len(keep_times)
        for part in ALL_PARTS:
            for old in self.vtk_dir.glob(f"{part}_[0-9]*.vtu"):
                if not (old.stem.rsplit("_", 1)[1].isdigit() and int(old.stem.rsplit("_", 1)[1]) < keep):
                    old.unlink()
        atomic_write(self.vtk_dir / BODIES_NAME, lambda fh: fh.write(bodies_csv(model)), durable=False)
        self.times: list[float] = [float(t) for t in keep_times]  # times of the frames written
        self.closed = False
        self._listed = -1  # frames listed in run.pvd
        self.flush()  # an empty but valid run.pvd from the start

    @property
    def frame_count(self) -> int:
        return len(self.times)

    @property
    def pvd_path(self) -> Path:
        return self.out_dir / PVD_NAME

    def frame_path(self, k: int, part: str = "spheres") -> Path:
        """Path of part `part` of frame number `k`."""
        if part not in ALL_PARTS:
            raise ValueError(f"part must be one of {ALL_PARTS}, got {part!r}")
        return self.vtk_dir / f"{part}_{k:06d}.vtu"

    def write(self, frame: Frame) -> None:
        """Write `frame`'s parts; list it in run.pvd now or at the next rewrite (see the class notes)."""
        if self.closed:
            raise RuntimeError("VtkWriter.write after close()")
        if self.all_spheres and len(frame.radii) != self.model.ball_count:
            frame = expand_to_all_spheres(frame, self.model)
        k = self.frame_count
        for part in self.parts:
            mesh = surface_mesh(frame, self.surfaces) if part == SURFACES else MESHERS[part](frame)
            # frames: no fsync (milliseconds per file), the move alone keeps them whole if the run stops
            with atomic_path(self.frame_path(k, part), durable=False) as tmp:
                if self.encoding == "raw":
                    write_vtu(tmp, mesh, scalars=ACTIVE_SCALARS.get(part))
                else:  # meshio's writer cannot mark the active scalars (the user picks 'body' to colour by)
                    # VTK's compressed layout with zero blocks is legal, but meshio's reader rejects it
                    comp = "zlib" if len(mesh.points) else None
                    meshio.write(tmp, mesh, file_format="vtu", compression=comp)
        self.times.append(float(frame.t))
        if time.monotonic() - self._pvd_time >= self.pvd_interval:
            self.flush()

    def flush(self) -> None:
        """Rewrite run.pvd now if it does not list every frame written."""
        if self._listed == len(self.times):
            return
        # ~100 bytes per part and frame: even 10⁴ frames rewrite in milliseconds
        entries = [(t, p, part, f"{VTK_DIR}/{part}_{k:06d}.vtu")
                   for k, t in enumerate(self.times) for p, part in enumerate(self.parts)]
        text = pvd_text(entries)
        with atomic_path(self.pvd_path, durable=False) as tmp:
            tmp.write_text(text)
        self._listed = len(self.times)
        self._pvd_time = time.monotonic()

    def close(self) -> None:
        if not self.closed:
            self.flush()
            self.closed = True

    def __enter__(self) -> VtkWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
