"""Writes the meshes the mesh scenes ship with (made by the project, from primitives; binary STL, metres):

- ``stele.stl``: a tapered stele, the right prism on the trapezoid (x, z) = (±0.15, 0) – (±0.10, 1.0) m,
  0.5 m along y (dem.model.mesh_shapes.prism_mesh): it rocks across its thickness (x), tan α = b/h =
  0.15/0.4667 (scenes/mesh_body.py's default body);
- ``stele_mm.stl``: the same stele written in millimetres, as CAD tools often write (README:
  ``dem run mesh_body --set mesh=scenes/data/stele_mm.stl units=mm``);
- ``statue.stl``: a standing figure on its own square pedestal, 1.10 m high, lofted through sections
  (dem.model.mesh_shapes.statue_mesh; scenes/museum_statue.py).

    python scenes/data/make_meshes.py        # rewrites them beside this script
"""

from pathlib import Path

from dem.model.mesh_file import TriMesh
from dem.model.mesh_shapes import prism_mesh, statue_mesh, write_stl

HERE = Path(__file__).resolve().parent
STELE = [(-0.15, 0.0), (0.15, 0.0), (0.10, 1.0), (-0.10, 1.0)]  # (x, z) [m], counter-clockwise
STELE_THICKNESS = 0.5  # [m] along y


def main() -> None:
    stele = prism_mesh(STELE, STELE_THICKNESS, source="stele")
    write_stl(HERE / "stele.stl", stele)
    write_stl(HERE / "stele_mm.stl", TriMesh(stele.vertices * 1000.0, stele.faces, "stele in mm"))
    write_stl(HERE / "statue.stl", statue_mesh())


if __name__ == "__main__":
    main()
