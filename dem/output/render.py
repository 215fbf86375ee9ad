"""Off-screen pictures and movies of an output folder's frames with pyvista (``dem render``).

    dem render runs/pena_block                          # last frame → runs/pena_block/render_K.png
    dem render runs/pena_block --frame 0 --color-by velocity:z --camera front --out first.png
    dem render runs/pena_block --movie rocking.gif --fps 20 --size 640 480
    dem render runs/pena_block --movie rocking.mp4      # needs imageio and imageio-ffmpeg
    dem render runs/stack --contacts-only --camera front   # the contact network between two blocks

A picture shows the spheres as sphere glyphs of their true radius coloured by a field (or by body, with
one colour per body and a legend naming them), the walls (grey, half transparent), the contact forces (a
tube from each contact point along the force's line of action into the wall or the other body, its
length and colour proportional to the normal force: the reaction diagram of each interface), the time,
and a scalar bar per colour. The camera frames the bodies, not the walls. Where bodies touch bodies the
spheres are drawn translucent so that the contacts between them show (``--opacity``); ``--contacts-only``
leaves the spheres out (each body's outline instead). A body from a mesh (dem.model.mesh_clump) is drawn as
its own surface, moved by its pose (the frames' ``surfaces`` part, dem.output.paraview), not as its spheres
(``--spheres`` draws its spheres too).

Off-screen rendering needs an OpenGL context without a window: VTK's pip wheels use EGL (Mesa's libEGL,
Debian libegl1 + libgl1-mesa-dri) or OSMesa (libosmesa6) when there is no X display; this module picks
whichever is installed, or an X server (``xvfb-run dem render ...``) if DISPLAY is set.
"""

from __future__ import annotations

import argparse
import ctypes.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from .paraview import SURFACES
from .results import Results, load_results

FIELDS = {"body": "", "velocity": "m/s", "angular_velocity": "rad/s", "contact_force": "N", "radius": "m",
          "clump_id": ""}
CATEGORICAL = ("body", "clump_id")  # one colour per value, a legend instead of a colour bar
COMPONENTS = {"x": 0, "y": 1, "z": 2, "mag": None}
# camera direction (focal point → camera) and view-up; scenes are z-up with rocking in x (see scenes/)
CAMERAS = {
    "iso": ((1.0, -1.6, 0.9), (0.0, 0.0, 1.0)),
    "front": ((0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
    "back": ((0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "side": ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
    "top": ((0.0, 0.0, 1.0), (0.0, 1.0, 0.0)),
    "below": ((0.3, -1.0, -0.6), (0.0, 0.0, 1.0)),
}
MOVIE_SUFFIXES = (".gif", ".mp4")
FORCE_LENGTH = 0.15  # the largest normal force's tube, as a fraction of the spheres' bounding-box diagonal
BAR_BAND = 0.16  # fraction of the picture's height under the scene kept for the scalar bars
SPHERE_RESOLUTION = 10  # glyph facets around; 10 keeps 10⁵ spheres interactive on a software renderer
TRANSLUCENT = 0.3  # sphere opacity where bodies touch bodies: the contacts between them stay visible
INSTALL_VIS = "pip install -e '.[vis]' (from the dem checkout; dem is not on PyPI)"


# ----------------------------------------------------------------------------------------------------------
# off-screen context


def setup_offscreen() -> None:
    """Choose a window-less OpenGL context for VTK when there is no X display (before any plotter exists)."""
    if os.environ.get("DISPLAY") or os.environ.get("VTK_DEFAULT_OPENGL_WINDOW"):
        return
    # without this VTK tries X first and logs 'bad X server connection' before falling back
    if ctypes.util.find_library("EGL"):
        os.environ["VTK_DEFAULT_OPENGL_WINDOW"] = "vtkEGLRenderWindow"
    elif ctypes.util.find_library("OSMesa"):
        os.environ["VTK_DEFAULT_OPENGL_WINDOW"] = "vtkOSOpenGLRenderWindow"


# rendered in a child process (without importing dem, whose import starts nothing but costs seconds)
_PROBE = """
import numpy as np, pyvista as pv
p = pv.Plotter(off_screen=True, window_size=(64, 48))
p.add_mesh(pv.Sphere(), color="red")
img = p.screenshot(return_img=True)
p.close()
print(f"probe {img.shape[1]}x{img.shape[0]} std {float(np.std(img)):.3f}")
"""


def can_render(*, timeout: float = 120.0) -> tuple[bool, str]:
    """Whether pyvista can render off-screen here, and why not. Probes in a child process, because a
    missing OpenGL library can crash the process rather than raise."""
    try:
        import pyvista  # noqa: F401
    except ImportError:
        return False, f"pyvista is not installed ({INSTALL_VIS})"
    setup_offscreen()  # the child inherits the choice
    try:
        r = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"an off-screen test render did not finish in {timeout:g} s"
    line = [s for s in r.stdout.splitlines() if s.startswith("probe ")]
    if r.returncode != 0 or not line or float(line[-1].split()[-1]) == 0.0:
        tail = (r.stderr.strip().splitlines() or ["no message"])[-1]
        return False, (f"VTK found no off-screen OpenGL context (exit {r.returncode}: {tail}); install Debian's "
                       "libegl1 libgl1-mesa-dri (EGL) or libosmesa6, or run under xvfb-run")
    return True, line[-1]


# ----------------------------------------------------------------------------------------------------------
# options


def parse_color_by(spec: str) -> tuple[str, int | None]:
    """``FIELD[:x|y|z|mag]`` → (field, component or None for the magnitude)."""
    name, _, comp = spec.partition(":")
    if name not in FIELDS:
        raise ValueError(f"--color-by must be FIELD or FIELD:COMPONENT with FIELD one of {tuple(FIELDS)} and "
                         f"COMPONENT one of {tuple(COMPONENTS)}, got {spec!r}")
    if comp and comp not in COMPONENTS:
        raise ValueError(f"--color-by component must be one of {tuple(COMPONENTS)}, got {comp!r} in {spec!r}")
    return name, COMPONENTS[comp] if comp else None


def parse_camera(spec: str) -> tuple[np.ndarray, np.ndarray]:
    """A preset name or ``X,Y,Z`` (direction from the scene's centre to the camera) → (direction, view-up)."""
    if spec in CAMERAS:
        d, up = CAMERAS[spec]
        return np.asarray(d, float), np.asarray(up, float)
    try:
        d = np.array([float(v) for v in spec.split(",")])
    except ValueError:
        d = np.zeros(0)
    if d.shape != (3,) or not np.all(np.isfinite(d)) or np.linalg.norm(d) == 0:
        raise ValueError(f"--camera must be one of {tuple(CAMERAS)} or a direction X,Y,Z (not all zero), got {spec!r}")
    d = d / np.linalg.norm(d)
    up = np.array([0.0, 1.0, 0.0]) if abs(d[2]) > 0.99 else np.array([0.0, 0.0, 1.0])
    return d, up


def _bar_args(title: str, x: float, width_px: int) -> dict:
    """A horizontal scalar bar along the bottom, starting at `x` (fraction of the width)."""
    return {"title": title, "vertical": False, "position_x": x, "position_y": 0.03, "width": 0.4, "height": 0.08,
            "color": "black", "fmt": "%.3g", "title_font_size": 16, "label_font_size": 14,
            "n_labels": 5 if width_px >= 800 else 3}  # labels of a narrow bar would run into each other


def _scalars(arrays: dict, field: str, comp: int | None) -> np.ndarray:
    if field == "body" and "body" not in arrays:  # frames written before the body array: the same ids
        field = "clump_id"
    a = np.asarray(arrays[field], float)
    if a.ndim == 1:
        return a
    return np.linalg.norm(a, axis=1) if comp is None else a[:, comp]


def _fn(contacts_mesh) -> np.ndarray:
    """Normal force of each contact [N] (frames written before the full export held it as normal_force)."""
    cd = contacts_mesh.cell_data
    if "fn" in cd:
        return np.asarray(cd["fn"][0], float)
    if "normal_force" in cd and np.ndim(cd["normal_force"][0]) == 1:
        return np.asarray(cd["normal_force"][0], float)
    return np.zeros(0)


def _text_background(actor) -> None:
    """A white, nearly opaque box behind a text, so that it reads over walls and bodies."""
    prop = actor.GetTextProperty()
    prop.SetBackgroundColor(1.0, 1.0, 1.0)
    prop.SetBackgroundOpacity(0.85)


def _quat_matrix(q) -> np.ndarray:
    """Rotation matrix of a quaternion (w, x, y, z), body → world."""
    w, x, y, z = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _body_colours(n: int) -> list[str]:
    """n clearly different colours (matplotlib's tab10, tab20 beyond ten bodies), as hex strings."""
    import matplotlib

    cmap = matplotlib.colormaps["tab10" if n <= 10 else "tab20"]
    return [matplotlib.colors.to_hex(cmap(i % cmap.N)) for i in range(max(n, 1))]


def _bar_title(field: str, comp: int | None) -> str:
    unit = FIELDS[field]
    if field in CATEGORICAL:
        return "body"
    if field == "radius":
        label = field
    else:
        label = f"{field} magnitude" if comp is None else f"{field} {'xyz'[comp]}"
    return f"{label} [{unit}]" if unit else label


# ----------------------------------------------------------------------------------------------------------
# drawing


class FrameRenderer:
    """One off-screen plotter that draws frames of `results` one after another (fixed camera and colours).

    Args:
        results: a loaded output folder (:func:`dem.output.results.load_results`).
        color_by: sphere colour, ``FIELD[:x|y|z|mag]`` (see FIELDS); default: ``body`` (a colour per body, the
            frames' ``body`` array, with a legend of their names) when the run has several bodies, ``velocity``
            otherwise.
        camera: a CAMERAS preset or a direction ``X,Y,Z``; zoom: camera zoom factor (> 0).
        size: picture width and height [pixels].
        clim: colour range for the spheres (default: the data's range over `frames_for_range`).
        force_ref: normal force [N] drawn at FORCE_LENGTH (default: the largest over `frames_for_range`).
        contacts: draw the contact forces.
        opacity: of the spheres, in (0, 1] (default: TRANSLUCENT when bodies touch bodies in the frames drawn,
            1 otherwise).
        contacts_only: leave the spheres out (each body's outline instead): the contact network alone.
        spheres: draw the spheres of the bodies from meshes too (default: their own surfaces alone, where the
            frames hold them).
    """

    def __init__(self, results: Results, *, color_by: str | None = None, camera: str = "iso", zoom: float = 1.0,
                 size: tuple[int, int] = (1280, 720), clim: tuple[float, float] | None = None,
                 force_ref: float | None = None, contacts: bool = True, frames_for_range: list[int] | None = None,
                 opacity: float | None = None, contacts_only: bool = False, spheres: bool = False):
        self.results = results
        bodies = results.summary.get("clumps") or []
        if color_by is None:
            color_by = "body" if len(bodies) > 1 else "velocity"
        self.field, self.comp = parse_color_by(color_by)
        if opacity is not None and not (np.isfinite(opacity) and 0 < opacity <= 1):
            raise ValueError(f"--opacity must be in (0, 1], got {opacity}")
        self.body_names = [str(c.get("name", f"body {k}")) for k, c in enumerate(bodies)]
        self.contacts_only = bool(contacts_only)
        self.all_spheres = bool(spheres)
        self.cam_dir, self.cam_up = parse_camera(camera)
        if not (np.isfinite(zoom) and zoom > 0):
            raise ValueError(f"--zoom must be > 0, got {zoom}")
        w, h = (int(v) for v in size)
        if w < 16 or h < 16 or w > 8192 or h > 8192:
            raise ValueError(f"--size must be two integers in [16, 8192] (width height in pixels), got {size}")
        if force_ref is not None and not force_ref > 0:
            raise ValueError(f"force_ref must be > 0 [N], got {force_ref}")
        self.zoom, self.size, self.contacts = float(zoom), (w, h), contacts
        ks = frames_for_range if frames_for_range is not None else [-1]
        self.clim = clim if clim is not None else self._range(ks)
        self.force_ref = force_ref if force_ref is not None else self._force_ref(ks)
        self.opacity = opacity if opacity is not None else (TRANSLUCENT if self._bodies_touch(ks) else 1.0)
        self.scene_name = str(results.summary.get("scene", results.out_dir.name))

        setup_offscreen()
        try:
            import pyvista as pv
        except ImportError as e:  # optional dependency
            raise ImportError(f"rendering needs pyvista ({e}): {INSTALL_VIS}") from None

        self.pv = pv
        self.plotter = pv.Plotter(off_screen=True, window_size=list(self.size))
        # no anti-aliasing: 8× multisampling doubled the time of a software-rendered (llvmpipe) frame, and
        # VTK's EGL/OSMesa builds replace FXAA by supersampling, dearer still
        self.plotter.ren_win.SetMultiSamples(0)
        self.plotter.set_background("white")
        self._camera_set = False
        self._sphere_geom = pv.Sphere(radius=1.0, theta_resolution=SPHERE_RESOLUTION,
                                      phi_resolution=max(SPHERE_RESOLUTION // 2 + 1, 4))

    def _range(self, ks: list[int]) -> tuple[float, float]:
        lo, hi = np.inf, -np.inf
        for k in ks:
            s = _scalars(self.results.read_frame(k).point_data, self.field, self.comp)
            if len(s):
                lo, hi = min(lo, float(np.min(s))), max(hi, float(np.max(s)))
        if not np.isfinite(lo):
            return 0.0, 1.0
        if hi - lo <= 1e-12 * max(abs(hi), abs(lo), 1e-300):
            pad = max(abs(hi) * 0.05, 1e-12)
            return lo - pad, hi + pad
        return lo, hi

    def _contact_frames(self, ks: list[int]):
        if "contacts" not in self.results.frame_parts[self.results.frame_index(ks[0])]:
            return []
        return [self.results.read_frame(k, "contacts") for k in ks]

    def _force_ref(self, ks: list[int]) -> float:
        if not self.contacts:
            return 1.0
        f = [np.max(_fn(m), initial=0.0) for m in self._contact_frames(ks)]
        return max(max(f), 1e-300) if f else 1.0

    def _bodies_touch(self, ks: list[int]) -> bool:
        return any(np.any(np.asarray(m.cell_data["other_body_id"][0]) >= 0)
                   for m in self._contact_frames(ks) if "other_body_id" in m.cell_data)

    def draw(self, k: int) -> None:
        """Put frame `k` on the plotter (replacing the previous frame's actors)."""
        pv, pl = self.pv, self.plotter
        k = self.results.frame_index(k)
        t = self.results.frames[k][0]
        parts = self.results.frame_parts[k]
        sph = self.results.read_frame(k, "spheres")
        cloud = pv.PolyData(np.asarray(sph.points, float))
        cloud["radius"] = np.asarray(sph.point_data["radius"], float)
        title = _bar_title(self.field, self.comp)
        cloud[title] = _scalars(sph.point_data, self.field, self.comp)
        categorical = self.field in CATEGORICAL
        shown = cloud
        if SURFACES in parts and not self.contacts_only:
            drawn = self._surfaces(k, title, categorical)
            if not self.all_spheres and drawn:
                keep = ~np.isin(np.asarray(sph.point_data["clump_id"]).astype(int), drawn)
                shown = cloud.extract_points(np.flatnonzero(keep), adjacent_cells=False) if keep.any() else None
        if self.contacts_only:
            self._outlines(k, sph)
        elif shown is None:
            pl.remove_actor("spheres")
            if categorical:
                self._body_legend(self._colours(cloud, title))
        else:
            glyphs = shown.glyph(geom=self._sphere_geom, scale="radius", orient=False, factor=1.0)
            kw = {"smooth_shading": True, "opacity": self.opacity, "name": "spheres"}
            if categorical:
                colours = self._colours(cloud, title)
                pl.add_mesh(glyphs, scalars=title, cmap=colours, clim=(-0.5, len(colours) - 0.5), categories=True,
                            show_scalar_bar=False, **kw)
                self._body_legend(colours)
            else:
                pl.add_mesh(glyphs, scalars=title, clim=self.clim, cmap="viridis",
                            scalar_bar_args=_bar_args(title, 0.55, self.size[0]), **kw)
        if "walls" in parts:
            wm = self.results.read_frame(k, "walls")
            quads = np.asarray(wm.cells_dict.get("quad", np.zeros((0, 4), int)))
            if len(quads):
                faces = np.column_stack([np.full(len(quads), 4), quads]).ravel()
                pl.add_mesh(pv.PolyData(np.asarray(wm.points, float), faces), color="lightgray", opacity=0.5,
                            name="walls", show_edges=True, edge_color="gray")
        tubes = self._force_tubes(k, cloud) if self.contacts and "contacts" in parts else None
        if tubes is not None:
            pl.add_mesh(tubes, scalars="normal force [N]", clim=(0.0, self.force_ref), cmap="Reds", name="forces",
                        scalar_bar_args=_bar_args("normal force [N]", 0.05, self.size[0]))
        else:
            pl.remove_actor("forces")
        _text_background(pl.add_text(f"{self.scene_name}   t = {t:.4f} s", position="upper_left", font_size=12,
                                     color="black", name="time"))
        if not self._camera_set:  # from the first frame drawn; later frames only follow the bodies (_follow)
            self._set_camera(cloud)
            self._camera_set = True
        else:
            self._follow(cloud)

    def _colours(self, cloud, title: str) -> list[str]:
        """One colour per body (of every body in the frame, whether drawn as spheres or as a surface)."""
        ids = np.asarray(cloud[title]).astype(int)
        return _body_colours(max(int(ids.max(initial=0)) + 1, len(self.body_names)))

    def _surfaces(self, k: int, title: str, categorical: bool) -> list[int]:
        """Draw the surfaces of the bodies from meshes in frame `k` (in their body's colour, or coloured by the
        field where the surfaces carry it, velocity; else light grey); returns their body ids."""
        sm = self.results.read_frame(k, SURFACES)
        tris = np.asarray(sm.cells_dict.get("triangle", np.zeros((0, 3), int)))
        if not len(tris):
            self.plotter.remove_actor("surfaces")
            return []
        poly = self.pv.PolyData(np.asarray(sm.points, float), np.column_stack([np.full(len(tris), 3), tris]).ravel())
        ids = np.asarray(sm.point_data["body"]).astype(int)
        kw = {"smooth_shading": True, "split_sharp_edges": True, "name": "surfaces", "show_edges": False}
        if categorical:
            colours = _body_colours(max(int(ids.max(initial=0)) + 1, len(self.body_names)))
            poly[title] = ids.astype(float)
            self.plotter.add_mesh(poly, scalars=title, cmap=colours, clim=(-0.5, len(colours) - 0.5), categories=True,
                                  show_scalar_bar=False, **kw)
        elif self.field in sm.point_data:
            poly[title] = _scalars(sm.point_data, self.field, self.comp)
            self.plotter.add_mesh(poly, scalars=title, clim=self.clim, cmap="viridis", show_scalar_bar=False, **kw)
        else:
            self.plotter.add_mesh(poly, color="lightgray", **kw)
        return sorted(set(ids.tolist()))

    def _body_legend(self, colours: list[str]) -> None:
        """Body names in their colours, under the time (a text per body: VTK's legend box scales its text
        to the box and clips it at the picture's edge)."""
        names = self.body_names or [f"body {i}" for i in range(len(colours))]
        w, h = self.size
        fs = 10 if h >= 400 else 7
        step = int(1.9 * fs)
        for i, n in enumerate(names[: len(colours)]):
            y = h - int(2.6 * fs) - 10 - step * (i + 1)
            actor = self.plotter.add_text(f"{i}: {n}", position=(int(0.01 * w), y), font_size=fs, color=colours[i],
                                          name=f"body{i}")
            _text_background(actor)

    def _outlines(self, k: int, sph) -> None:
        """Each body's outline: the box of its spheres in its own frame (from the clumps part's pose), as
        edges in the body's colour; the picture's context when the spheres are left out."""
        parts = self.results.frame_parts[self.results.frame_index(k)]
        ids = np.asarray(sph.point_data["clump_id"]).astype(int)
        colours = _body_colours(max(int(ids.max(initial=0)) + 1, len(self.body_names)))
        if "clumps" not in parts:
            return
        cm = self.results.read_frame(k, "clumps")
        x, r = np.asarray(sph.points, float), np.asarray(sph.point_data["radius"], float)
        for c, (centre, q) in enumerate(zip(np.asarray(cm.points, float), np.asarray(cm.point_data["quaternion"]))):
            sel = ids == c
            if not sel.any():
                continue
            rot = _quat_matrix(q)
            local = (x[sel] - centre) @ rot  # body frame
            lo, hi = (local - r[sel, None]).min(axis=0), (local + r[sel, None]).max(axis=0)
            box = self.pv.Box(bounds=(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]))
            box.points = np.asarray(box.points) @ rot.T + centre
            self.plotter.add_mesh(box.extract_all_edges(), color=colours[c], line_width=2, name=f"outline{c}")
        self._body_legend(colours)

    def _force_tubes(self, k: int, cloud):
        """Contact forces: a tube per contact from the contact point along −normal (into the wall, or into
        the other body's sphere), of length FORCE_LENGTH × diagonal × F_n / force_ref, coloured by F_n."""
        cm = self.results.read_frame(k, "contacts")
        fn = _fn(cm)
        # a frame without contacts, or whose contacts carry no force (a body in the air): nothing to draw (issue 32:
        # an empty tube mesh stopped `dem render --movie` with "Empty meshes cannot be plotted")
        carrying = np.flatnonzero(fn > 0.0) if len(fn) else np.zeros(0, int)
        if len(carrying) == 0 or len(cm.points) < 2 * len(fn):
            return None
        cp = np.asarray(cm.points, float)[0::2][carrying]
        normal = np.asarray(cm.cell_data["normal"][0], float)[carrying]
        fn = fn[carrying]
        diag = float(np.linalg.norm(np.ptp(cloud.points, axis=0))) or 1.0
        length = FORCE_LENGTH * diag * np.maximum(fn, 0.0) / self.force_ref
        ends = cp - normal * length[:, None]
        pts = np.empty((2 * len(fn), 3))
        pts[0::2], pts[1::2] = cp, ends
        lines = np.column_stack([np.full(len(fn), 2), np.arange(0, 2 * len(fn), 2), np.arange(1, 2 * len(fn), 2)])
        poly = self.pv.PolyData(pts, lines=lines.ravel())
        poly.point_data["normal force [N]"] = np.repeat(fn, 2)
        tubes = poly.tube(radius=0.004 * diag, n_sides=8)
        return tubes if tubes.n_points else None

    def _set_camera(self, cloud) -> None:
        """Frame the bodies (the spheres' bounding box), not the walls, which can be far larger."""
        pl = self.plotter
        c = np.asarray(cloud.center, float)
        self._centre = c
        diag = float(np.linalg.norm(np.ptp(cloud.points, axis=0))) or 1.0
        pl.camera.focal_point = tuple(c)
        pl.camera.position = tuple(c + self.cam_dir * 2.5 * diag)
        pl.camera.up = tuple(self.cam_up)
        pad = 0.08 * diag  # room for the spheres' radii and the force tubes at the bodies' edges
        b = np.asarray(cloud.bounds, float).reshape(3, 2) + np.array([-pad, pad])
        pl.reset_camera(bounds=tuple(b.ravel()))
        # the scalar bars take the bottom ~15 % of the picture: fit the scene into the rest, above them
        cam = pl.camera
        focal, pos = np.asarray(cam.focal_point), np.asarray(cam.position)
        height = 2.0 * np.linalg.norm(pos - focal) * np.tan(np.radians(cam.view_angle) / 2.0)
        up = np.asarray(cam.up) / np.linalg.norm(cam.up)
        shift = -BAR_BAND / 2.0 * height * up
        cam.focal_point, cam.position = tuple(focal + shift), tuple(pos + shift)
        cam.zoom((1.0 - BAR_BAND) * self.zoom)
        pl.reset_camera_clipping_range()  # walls beyond the framed box stay drawn

    def _follow(self, cloud) -> None:
        """Move the camera with the bodies' centre in the horizontal plane, without turning or zooming (issue 32: a
        shaking table carried the bodies 2 m out of a fixed frame); rocking in place moves it little."""
        c = np.asarray(cloud.center, float)
        shift = np.array([c[0] - self._centre[0], c[1] - self._centre[1], 0.0])
        cam = self.plotter.camera
        cam.focal_point = tuple(np.asarray(cam.focal_point) + shift)
        cam.position = tuple(np.asarray(cam.position) + shift)
        self._centre = c
        self.plotter.reset_camera_clipping_range()

    def image(self, k: int) -> np.ndarray:
        """Frame `k` as an RGB image, shape (height, width, 3), uint8."""
        # adding actors renders after each one; render once, for the screenshot
        self.plotter.suppress_rendering = True
        try:
            self.draw(k)
        finally:
            self.plotter.suppress_rendering = False
        self.plotter.render()  # a no-op before the first screenshot, which renders by itself
        return self.plotter.screenshot(return_img=True)

    def close(self) -> None:
        self.plotter.close()


def render_frame(out_dir: Path | str, *, frame: int = -1, out: Path | str | None = None, **options) -> Path:
    """Render frame `frame` of the folder `out_dir` to a PNG (default ``out_dir/render_K.png``).

    Keyword options are those of :class:`FrameRenderer`. Returns the PNG's path.
    """
    res = load_results(out_dir)
    k = res.frame_index(frame)
    path = Path(out) if out is not None else res.out_dir / f"render_{k:06d}.png"
    if path.suffix.lower() != ".png":
        raise ValueError(f"--out must be a .png file, got {str(path)!r}")
    r = FrameRenderer(res, frames_for_range=[k], **options)
    try:
        img = r.image(k)
    finally:
        r.close()
    _save_png(path, img)
    return path


def render_movie(out_dir: Path | str, path: Path | str, *, fps: float = 20.0, stride: int = 1, **options) -> Path:
    """Render every `stride`-th frame of `out_dir` into a movie: ``.gif`` (Pillow) or ``.mp4`` (imageio with
    imageio-ffmpeg). Colours and the force scale are fixed over the movie. Returns the movie's path."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in MOVIE_SUFFIXES:
        raise ValueError(f"--movie must end in one of {MOVIE_SUFFIXES}, got {str(path)!r}")
    if not (np.isfinite(fps) and fps > 0):
        raise ValueError(f"--fps must be > 0, got {fps}")
    if not (isinstance(stride, int) and stride >= 1):
        raise ValueError(f"--stride must be an integer >= 1, got {stride!r}")
    writer = _mp4_writer(path, fps) if suffix == ".mp4" else None  # fail before rendering anything
    res = load_results(out_dir)
    ks = list(range(0, res.frame_count, stride)) if res.frame_count else [res.frame_index(0)]
    r = FrameRenderer(res, frames_for_range=ks, **options)
    gif: list = []
    try:
        for k in ks:
            img = r.image(k)
            if writer is not None:
                writer.append_data(img)
            else:
                from PIL import Image

                # palette images: a quarter of the memory of RGB while the frames are held
                gif.append(Image.fromarray(img).quantize(colors=255, method=Image.Quantize.MEDIANCUT))
    finally:
        r.close()
        if writer is not None:
            writer.close()
    if gif:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        gif[0].save(tmp, format="GIF", save_all=True, append_images=gif[1:], duration=round(1000.0 / fps), loop=0)
        os.replace(tmp, path)
    return path


def _mp4_writer(path: Path, fps: float):
    try:
        import imageio.v2 as imageio
        import imageio_ffmpeg

        imageio_ffmpeg.get_ffmpeg_exe()
    except (ImportError, RuntimeError) as e:
        raise ImportError(f"an .mp4 movie needs imageio and imageio-ffmpeg ({e}): pip install imageio imageio-ffmpeg, "
                          "or ask for a .gif") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    # macro_block_size 2: H.264 with yuv420p needs even sizes; 16 would make imageio rescale most sizes
    return imageio.get_writer(path, format="FFMPEG", mode="I", fps=fps, codec="libx264", quality=7,
                              pixelformat="yuv420p", macro_block_size=2)


def _save_png(path: Path, img: np.ndarray) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    Image.fromarray(img).save(tmp, format="PNG")
    os.replace(tmp, path)


# ----------------------------------------------------------------------------------------------------------
# command line


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Options of ``dem render``."""
    p.add_argument("out_dir", help="output folder of 'dem run ... --vtk-every N' (holds run.pvd)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--frame", type=int, default=-1, metavar="K", help="frame number (negative: from the end; "
                      "default -1, the last)")
    what.add_argument("--movie", default=None, metavar="FILE", help="render every frame into FILE.gif or FILE.mp4")
    p.add_argument("--out", default=None, metavar="PNG", help="picture file (default OUT_DIR/render_K.png)")
    p.add_argument("--color-by", default=None, metavar="FIELD",
                   help=f"sphere colour: one of {', '.join(FIELDS)}, optionally :x, :y, :z or :mag (default: "
                        "body, a colour per body, when there are several bodies; velocity otherwise)")
    p.add_argument("--camera", default="iso", help=f"one of {', '.join(CAMERAS)} or a direction X,Y,Z from the "
                   "scene's centre to the camera (default iso)")
    p.add_argument("--zoom", type=float, default=1.0, help="camera zoom (default 1)")
    p.add_argument("--size", type=int, nargs=2, default=(1280, 720), metavar=("W", "H"),
                   help="picture size in pixels (default 1280 720)")
    p.add_argument("--clim", type=float, nargs=2, default=None, metavar=("MIN", "MAX"),
                   help="colour range of the spheres (default: the data's, over the movie for movies)")
    p.add_argument("--force-ref", type=float, default=None, metavar="N",
                   help="normal force [N] drawn at full length (default: the largest)")
    p.add_argument("--no-contacts", action="store_true", help="do not draw the contact forces")
    p.add_argument("--contacts-only", action="store_true",
                   help="leave the spheres out (each body's outline instead): the contact network alone")
    p.add_argument("--spheres", action="store_true",
                   help="draw the spheres of the bodies from meshes too (default: their own surfaces alone)")
    p.add_argument("--opacity", type=float, default=None,
                   help=f"sphere opacity in (0, 1] (default {TRANSLUCENT} where bodies touch bodies, else 1)")
    p.add_argument("--fps", type=float, default=20.0, help="movie frames per second (default 20)")
    p.add_argument("--stride", type=int, default=1, help="movie: every STRIDE-th frame (default 1)")


def main(args: argparse.Namespace) -> int:
    """``dem render``: exit code 0, or 2 with a message on bad input."""
    opts = {"color_by": args.color_by, "camera": args.camera, "zoom": args.zoom, "size": tuple(args.size),
            "clim": tuple(args.clim) if args.clim else None, "force_ref": args.force_ref,
            "contacts": not args.no_contacts, "opacity": args.opacity, "contacts_only": args.contacts_only,
            "spheres": args.spheres}
    if args.contacts_only and args.no_contacts:
        print("dem: error: --contacts-only and --no-contacts leave nothing to draw", file=sys.stderr)
        return 2
    try:
        if args.movie is not None:
            if args.out is not None:
                raise ValueError("--out is for a single picture; with --movie the movie's file is the output")
            path = render_movie(args.out_dir, args.movie, fps=args.fps, stride=args.stride, **opts)
        else:
            path = render_frame(args.out_dir, frame=args.frame, out=args.out, **opts)
    except (ValueError, FileNotFoundError, IndexError, ImportError) as e:
        print(f"dem: error: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0
