"""Reading an output folder back, for notebooks and scripts.

    from dem.output.results import load_results
    res = load_results("runs/pena_block")
    res.history["theta_deg"], res.summary["max_energy_error"]      # NumPy arrays, the run's summary
    t, path = res.frames[-1]                                        # time [s] and spheres file of a frame
    spheres = res.read_frame(-1)                                    # meshio.Mesh (point_data: radius, ...)
    blocks = res.pyvista_frame(-1)                                  # pyvista.MultiBlock (the vis extra)

A folder holds the history (``history.parquet``, or ``history.csv`` from ``dem run --csv``: column ``t`` [s],
the probes and energies; dem.output.history reads either), ``summary.json``, force profiles
(``profile_<name>.parquet`` or ``.csv``) and, when frames were written (``dem run --vtk-every/--vtk-fps``),
``run.pvd`` with ``vtk/*.vtu`` (see dem.output.paraview).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import meshio
import numpy as np

from .files import CorruptFileError
from .history import history_path, read_profiles, read_table
from .paraview import ALL_PARTS, PVD_NAME, VTK_DIR

_PVD_ATTRIBUTES = {"timestep", "group", "part", "name", "file"}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_FRAME_FILE = re.compile(rf"{VTK_DIR}/({'|'.join(ALL_PARTS)})_[0-9]{{6}}\.vtu")
_VTU_TYPES = {"Float64": np.float64, "Float32": np.float32, "Int64": np.int64, "Int32": np.int32,
              "Int16": np.int16, "Int8": np.int8, "UInt64": np.uint64, "UInt32": np.uint32, "UInt8": np.uint8}


def read_pvd(path: Path | str) -> list[dict]:
    """Entries of a ParaView collection: dicts with ``t`` [s], ``part`` (int), ``name`` and ``file`` (absolute)."""
    path = Path(path)
    raw = path.read_bytes()
    cut = raw.find(b"<AppendedData")  # binary data after it is not XML; an empty file needs only the header
    try:
        root = ET.fromstring(raw if cut < 0 else raw[:cut] + b"</VTKFile>")
        if root.tag != "VTKFile" or root.get("type") != "Collection":
            raise ValueError(f"its root is <{root.tag} type={root.get('type')!r}>, not a VTKFile Collection")
        if [c.tag for c in root] != ["Collection"] or any(c.tag != "DataSet" for c in root[0]):
            raise ValueError("it holds elements other than one Collection of DataSets")
        stray = [root.text, root[0].text, root[0].tail] + [c.tail for c in root[0]] + [c.text for c in root[0]]
        if any((x or "").strip() for x in stray):
            raise ValueError("it holds text outside its elements (a damaged tag)")
        out = []
        for ds in root.iter("DataSet"):
            # what dem.output.paraview writes, and nothing else: a damaged attribute must not read as a default
            if not {"timestep", "file"} <= set(ds.keys()) <= _PVD_ATTRIBUTES:
                raise ValueError(f"a DataSet has the attributes {sorted(ds.keys())}")
            text = ds.get("timestep", "0")
            if not _NUMBER.fullmatch(text.strip()):  # float() would take '0_01' (PEP 515) as 1.0
                raise ValueError(f"a DataSet has timestep {text!r}, not a number")
            t = float(text)
            if not np.isfinite(t):
                raise ValueError(f"a DataSet has timestep {t}")
            part = ds.get("part", "0") or "0"
            if not part.strip().isdigit():
                raise ValueError(f"a DataSet has part {part!r}, not a whole number")
            out.append({"t": t, "part": int(part),
                        "name": ds.get("name", ""), "file": (path.parent / ds.get("file", "")).resolve()})
    except (ET.ParseError, ValueError, TypeError) as e:
        raise CorruptFileError(f"{path} is not a readable ParaView collection (.pvd): {e} (truncated or "
                               "corrupted)") from None
    return out


def read_vtu(path: Path | str) -> meshio.Mesh:
    """meshio's VTU reader, plus empty files (no points), which meshio 5.3 cannot read back.

    An empty file gives a mesh with zero points, one empty cell block of the file's type (``line`` if it
    cannot tell) and its arrays with zero rows, so code can treat an empty frame like any other.
    """
    path = Path(path)
    try:
        return _read_vtu(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"frame file {path} is missing (run.pvd lists it)") from None
    except Exception as e:  # meshio, numpy, zlib and XML each raise their own errors on a damaged file
        raise CorruptFileError(f"{path} is not a readable VTU file ({type(e).__name__}: "
                               f"{' '.join(str(e).split())[:200]}; truncated or corrupted)") from None


def _read_vtu(path: Path) -> meshio.Mesh:
    with open(path, "rb") as fh:
        head = fh.read(4096).decode("utf-8", "replace")
    m = re.search(r'NumberOfPoints="(\d+)"', head)
    if m is None or int(m.group(1)) > 0:
        mesh = meshio.vtu.read(path)  # not meshio.read: on a bad file it prints and calls sys.exit
        n = len(mesh.points)
        bad = [k for k, v in mesh.point_data.items() if len(v) != n]
        if (m is not None and n != int(m.group(1))) or bad:
            raise ValueError(f"point arrays {bad} do not match its {n} points" if bad else
                             "its point count does not match its header")
        return mesh
    raw = path.read_bytes()
    cut = raw.find(b"<AppendedData")  # binary data after it is not XML; an empty file needs only the header
    root = ET.fromstring(raw if cut < 0 else raw[:cut] + b"</VTKFile>")

    def arrays(tag: str) -> dict[str, np.ndarray]:
        out = {}
        for da in root.iter(tag):
            for a in da.iter("DataArray"):
                ncomp = int(a.get("NumberOfComponents", "1"))
                shape = (0, ncomp) if ncomp > 1 else (0,)
                out[a.get("Name")] = np.zeros(shape, _VTU_TYPES.get(a.get("type"), np.float64))
        return out

    cell_type = {"spheres": "vertex", "clumps": "vertex", "walls": "quad"}.get(path.stem.rsplit("_", 1)[0], "line")
    nodes = {"vertex": 1, "line": 2, "quad": 4}[cell_type]
    return meshio.Mesh(np.zeros((0, 3)), [(cell_type, np.zeros((0, nodes), np.int64))],
                       point_data=arrays("PointData"), cell_data={k: [v] for k, v in arrays("CellData").items()})


@dataclass
class Results:
    """An output folder, loaded.

    Attributes:
        out_dir: the folder.
        history: the history's columns (``t`` [s] first; history.parquet or history.csv), NumPy arrays of
            equal length; {} if absent.
        summary: ``summary.json``; {} if absent.
        frames: (time [s], path of the frame's ``spheres`` VTU) per frame, in time order.
        frame_parts: per frame, {part name: VTU path} (spheres, walls, contacts, clumps; surfaces where the
            model has bodies from meshes).
    """

    out_dir: Path
    history: dict[str, np.ndarray]
    summary: dict
    frames: list[tuple[float, Path]] = field(default_factory=list)
    frame_parts: list[dict[str, Path]] = field(default_factory=list)

    @property
    def times(self) -> np.ndarray:
        """Frame times [s]."""
        return np.array([t for t, _ in self.frames], float)

    @property
    def frame_count(self) -> int:
        return len(self.frames)

    def frame_index(self, k: int) -> int:
        """`k` as a non-negative frame number (negative counts from the end, as in Python)."""
        n = len(self.frames)
        if n == 0:
            raise IndexError(f"{self.out_dir} has no frames (run with --vtk-every N or --vtk-fps F)")
        if not isinstance(k, (int, np.integer)) or not -n <= k < n:
            raise IndexError(f"frame must be an integer in [{-n}, {n - 1}] ({n} frames), got {k!r}")
        return int(k) % n

    def nearest_frame(self, t: float) -> int:
        """Number of the frame closest to time `t` [s]."""
        if not self.frames:
            self.frame_index(0)
        return int(np.argmin(np.abs(self.times - float(t))))

    def frame_path(self, k: int, part: str = "spheres") -> Path:
        parts = self.frame_parts[self.frame_index(k)]
        if part not in parts:
            raise ValueError(f"part must be one of {tuple(parts)}, got {part!r}")
        return parts[part]

    def read_frame(self, k: int, part: str = "spheres") -> meshio.Mesh:
        """Part `part` of frame `k` as a meshio.Mesh (world frame, SI units; see dem.output.paraview)."""
        return read_vtu(self.frame_path(k, part))

    def frame_arrays(self, k: int) -> dict[str, dict[str, np.ndarray]]:
        """Every part of frame `k` as plain arrays: {part: {"points": ..., array name: ...}}."""
        out = {}
        for part in self.frame_parts[self.frame_index(k)]:
            m = self.read_frame(k, part)
            arrays = {"points": m.points} | dict(m.point_data)
            arrays |= {name: np.concatenate(blocks) for name, blocks in m.cell_data.items()}
            out[part] = arrays
        return out

    def pyvista_frame(self, k: int):
        """Frame `k` as a ``pyvista.MultiBlock`` with one named block per part (needs pyvista: the vis extra)."""
        try:
            import pyvista as pv
        except ImportError as e:  # optional dependency
            raise ImportError("pyvista_frame needs pyvista: pip install -e '.[vis]' from the dem checkout (dem is not "
                              "on PyPI)") from e
        blocks = pv.MultiBlock()
        for part, path in self.frame_parts[self.frame_index(k)].items():
            blocks[part] = pv.read(path)
        return blocks

    @property
    def profiles(self) -> dict[str, dict[str, np.ndarray]]:
        """``profile_<name>.parquet`` (or ``.csv``) tables (force distributions), by name."""
        return read_profiles(self.out_dir)


def load_results(out_dir: Path | str) -> Results:
    """Load the output folder `out_dir` of ``dem run`` / :func:`dem.run.run_scene`."""
    out = Path(out_dir)
    if not out.is_dir():
        raise FileNotFoundError(f"out_dir must be an output folder, got {out} (not a folder)")
    summ_path, pvd_path = out / "summary.json", out / PVD_NAME
    hist_path = history_path(out)
    if not (hist_path is not None or summ_path.exists() or pvd_path.exists()):
        raise FileNotFoundError(f"{out} has none of history.parquet, history.csv, summary.json, {PVD_NAME}: not a "
                                "dem output folder")
    summary = {}
    if summ_path.exists():
        try:
            summary = json.loads(summ_path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise CorruptFileError(f"{summ_path} is not readable JSON ({' '.join(str(e).split())}; truncated or "
                                   "corrupted)") from None
    hist_path = history_path(out, summary)
    history = read_table(hist_path) if hist_path is not None else {}
    frames, frame_parts = [], []
    if pvd_path.exists():
        by_time: dict[float, dict[str, Path]] = {}
        entries = read_pvd(pvd_path)
        base = out.resolve()
        for e in entries:  # what dem.output.paraview writes: a damaged name must not pass for another part
            rel = e["file"].relative_to(base).as_posix() if e["file"].is_relative_to(base) else str(e["file"])
            if e["name"] not in ("", *ALL_PARTS) or not _FRAME_FILE.fullmatch(rel):
                raise CorruptFileError(f"{pvd_path} lists part {e['name']!r} in file {rel}, not a frame file of "
                                       "dem (corrupted)")
        for e in entries:
            name = e["name"] or (ALL_PARTS[e["part"]] if e["part"] < len(ALL_PARTS) else f"part{e['part']}")
            by_time.setdefault(e["t"], {})[name] = e["file"]
        for t in sorted(by_time):
            parts = by_time[t]
            frames.append((t, parts.get("spheres", next(iter(parts.values())))))
            frame_parts.append(parts)
    return Results(out, history, summary, frames, frame_parts)
