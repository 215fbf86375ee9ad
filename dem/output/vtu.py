"""VTK XML files at the cost of a memory copy: a meshio.Mesh as an unstructured grid (.vtu) with its
arrays in one raw appended block, and ParaView collections (.pvd).

Why not meshio.write: meshio 5.3 writes arrays inline, base64-encoded and (by default) zlib-compressed,
through an element tree: ~15-20 ms for a frame of 4,400 spheres, ~75 ms for 17,700, which alone would
exceed 10 % of a run of this engine at 10 frames per simulated second. The raw appended layout below is
VTK's own default binary layout (what ParaView's writers produce with "Appended" and no encoding); VTK,
ParaView, pyvista and meshio's reader all read it.

Layout: ``<VTKFile type="UnstructuredGrid" version="1.0" header_type="UInt64">`` with every DataArray
``format="appended"`` at a byte offset into ``<AppendedData encoding="raw">_...``, where each array is
an 8-byte little-endian byte count followed by its bytes (native little-endian, C order).
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

import meshio
import numpy as np

VTK_CELL_TYPES = {"vertex": 1, "line": 3, "triangle": 5, "quad": 9}
VTU_TYPES = {np.dtype(np.float64): "Float64", np.dtype(np.float32): "Float32", np.dtype(np.int64): "Int64",
             np.dtype(np.int32): "Int32", np.dtype(np.uint8): "UInt8"}


def write_vtu(path: Path | str, mesh: meshio.Mesh, *, scalars: str | None = None) -> None:
    """Write `mesh` (one cell block of a type in VTK_CELL_TYPES; point and cell data of VTU_TYPES dtypes,
    1 or 2 dimensions) as a .vtu file with raw appended data. Not atomic: see dem.output.files.atomic_path.

    ``scalars``: a point (or, without point data, cell) array made the active scalars (VTK's ``Scalars``
    attribute of PointData/CellData): what ParaView and pyvista colour by when the file is opened."""
    if sys.byteorder != "little":  # the header says LittleEndian; arrays go out as they are in memory
        raise NotImplementedError("write_vtu writes little-endian files from a little-endian machine only")
    if len(mesh.cells) != 1 or mesh.cells[0].type not in VTK_CELL_TYPES:
        raise ValueError(f"mesh must have one cell block of a type in {tuple(VTK_CELL_TYPES)}, got "
                         f"{[c.type for c in mesh.cells]}")
    block = mesh.cells[0]
    conn = np.ascontiguousarray(block.data, np.int64)
    n_cells, per_cell = conn.shape
    xml: list[str | int] = []  # an int stands for the DataArray of that number, filled in below
    arrays: list[tuple[str, np.ndarray]] = []

    def data_array(name: str, a) -> None:
        a = np.ascontiguousarray(a)
        if a.dtype not in VTU_TYPES or a.ndim not in (1, 2):
            raise ValueError(f"array {name!r}: dtype must be one of {[str(t) for t in VTU_TYPES]} and 1 or 2 "
                             f"dimensions, got {a.dtype} with shape {a.shape}")
        xml.append(len(arrays))
        arrays.append((name, a))

    xml.append('<?xml version="1.0"?>')
    xml.append('<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" header_type="UInt64">')
    xml.append(f'<UnstructuredGrid>\n<Piece NumberOfPoints="{len(mesh.points)}" NumberOfCells="{n_cells}">')
    xml.append("<Points>")
    data_array("Points", np.asarray(mesh.points, np.float64).reshape(-1, 3))
    xml.append("</Points>\n<Cells>")
    data_array("connectivity", conn.reshape(-1))
    data_array("offsets", np.arange(1, n_cells + 1, dtype=np.int64) * per_cell)  # end of each cell
    data_array("types", np.full(n_cells, VTK_CELL_TYPES[block.type], np.uint8))
    xml.append("</Cells>")
    for tag, data in (("PointData", mesh.point_data), ("CellData", {k: v[0] for k, v in mesh.cell_data.items()})):
        if data:
            active = f" Scalars={quoteattr(scalars)}" if scalars in data else ""
            xml.append(f"<{tag}{active}>")
            for name, a in data.items():
                data_array(name, a)
            xml.append(f"</{tag}>")
    xml.append('</Piece>\n</UnstructuredGrid>\n<AppendedData encoding="raw">\n_')

    # Blocks go in reverse document order. meshio 5.3's reader turns raw data into base64 by walking the
    # blocks and relabelling each DataArray's offset in place, finding the next one by its raw offset: a
    # relabelled array earlier in the document whose new offset equals a later raw offset would be taken
    # instead. In reverse order every relabelled array comes after the one being looked up. VTK seeks by
    # offset and does not care.
    order = list(range(len(arrays)))[::-1]
    offsets, pos = {}, 0
    for i in order:
        offsets[i] = pos
        pos += 8 + arrays[i][1].nbytes

    def line(item) -> str:
        if isinstance(item, str):
            return item
        name, a = arrays[item]
        comps = f' NumberOfComponents="{a.shape[1]}"' if a.ndim == 2 else ""
        return (f'<DataArray type="{VTU_TYPES[a.dtype]}" Name={quoteattr(name)}{comps} format="appended" '
                f'offset="{offsets[item]}"/>')

    with open(path, "wb") as fh:
        fh.write("\n".join(line(x) for x in xml).encode())
        for i in order:
            a = arrays[i][1]
            fh.write(np.uint64(a.nbytes).tobytes())
            if a.nbytes:  # a memoryview with a zero in its shape cannot be cast to bytes
                fh.write(memoryview(a).cast("B"))
        fh.write(b"\n</AppendedData>\n</VTKFile>\n")


def pvd_text(entries: list[tuple[float, int, str, str]]) -> str:
    """A ParaView collection: entries (time [s], part number, part name, file path relative to the .pvd)."""
    lines = ['<?xml version="1.0"?>',
             '<VTKFile type="Collection" version="0.1" byte_order="LittleEndian">',
             "  <Collection>"]
    # repr(float) round-trips exactly, so the .pvd time equals the snapshot's time
    lines += [f'    <DataSet timestep="{t!r}" group="" part="{p}" name={quoteattr(name)} file={quoteattr(f)}/>'
              for t, p, name, f in entries]
    lines += ["  </Collection>", "</VTKFile>", ""]
    return "\n".join(lines)
