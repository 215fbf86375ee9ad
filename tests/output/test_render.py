"""Off-screen rendering (dem.output.render): a frame becomes a PNG of the requested size that shows something,
movies have one picture per frame, and bad options fail with a message naming the option.

Skipped, with the reason, where pyvista is missing or VTK finds no window-less OpenGL context (EGL or
OSMesa, see dem.output.render); the option checks run everywhere.
"""

from __future__ import annotations

import numpy as np
import pytest

from dem.output.render import can_render, parse_camera, parse_color_by
from tests._postproc_case import postproc_run_fixture  # noqa: F401

MIN_COLOURS = 50  # a white picture with a few text pixels has < 10; spheres shaded by light and a colour map, ≫ 100
MIN_COVERED = 0.02  # fraction of non-background pixels: the smaller block alone covers ~5 % at the default camera

_render_ok: dict = {}


def _require_rendering():
    if "ok" not in _render_ok:
        _render_ok["ok"] = can_render()
    ok, why = _render_ok["ok"]
    if not ok:
        pytest.skip(f"off-screen rendering unavailable: {why}")


def _picture_stats(path):
    from PIL import Image

    img = np.asarray(Image.open(path).convert("RGB"))
    colours = len(np.unique(img.reshape(-1, 3), axis=0))
    covered = float(np.mean(np.any(img < 245, axis=2)))  # background is white
    return img.shape, colours, covered


def test_frame_to_png_of_requested_size_not_blank(tmp_path, postproc_run):
    _require_rendering()
    from dem.output.render import render_frame

    png = render_frame(postproc_run.out_dir, frame=-1, out=tmp_path / "last.png", size=(320, 240))
    shape, colours, covered = _picture_stats(png)
    assert shape == (240, 320, 3)
    assert colours > MIN_COLOURS and covered > MIN_COVERED, (colours, covered)


def test_cli_render_options(tmp_path, postproc_run, capsys):
    _require_rendering()
    from dem.cli.main import main

    out = tmp_path / "first.png"
    rc = main(["render", str(postproc_run.out_dir), "--frame", "0", "--out", str(out), "--size", "200", "150",
               "--camera", "front", "--color-by", "velocity:z", "--no-contacts"])
    assert rc == 0 and capsys.readouterr().out.strip() == str(out)
    shape, colours, covered = _picture_stats(out)
    assert shape == (150, 200, 3) and colours > MIN_COLOURS and covered > MIN_COVERED
    # default output name: OUT_DIR/render_K.png for the last frame
    rc = main(["render", str(postproc_run.out_dir), "--size", "160", "120", "--color-by", "clump_id",
               "--camera", "1,-1,1"])
    k = len(postproc_run.frames) - 1
    assert rc == 0 and (postproc_run.out_dir / f"render_{k:06d}.png").exists()


def test_bodies_framed_in_their_colours_and_contacts_only(tmp_path, postproc_run):
    """Two bodies: coloured one colour each (tab10 blue and orange), the camera on them (they span most of
    the picture, though the base facet is 1.0 × 0.6 m beside 0.1-0.15 m blocks); --contacts-only draws
    their outlines and the contact forces without spheres."""
    _require_rendering()
    from PIL import Image

    from dem.cli.main import main

    out = tmp_path / "bodies.png"
    assert main(["render", str(postproc_run.out_dir), "--out", str(out), "--size", "320", "240", "--no-contacts",
                 "--camera", "front"]) == 0  # default colour for two bodies: by body
    img = np.asarray(Image.open(out).convert("RGB")).astype(float)
    body = {}
    for name, rgb in (("blue", (31, 119, 180)), ("orange", (255, 127, 14))):
        # shading scales the colour: compare directions, not values
        c = np.array(rgb, float) / np.linalg.norm(rgb)
        cos = (img @ c) / np.maximum(np.linalg.norm(img, axis=2), 1e-9)
        body[name] = (cos > 0.995) & (img.max(axis=2) > 40)
    assert body["blue"].mean() > 0.005 and body["orange"].mean() > 0.005, {k: v.mean() for k, v in body.items()}
    cols = np.flatnonzero((body["blue"] | body["orange"]).any(axis=0))
    assert cols[-1] - cols[0] > 0.4 * img.shape[1]  # framed: the bodies, 0.55 m apart, span ≥ 40 % of the width
    only = tmp_path / "contacts.png"
    assert main(["render", str(postproc_run.out_dir), "--out", str(only), "--size", "320", "240",
                 "--contacts-only"]) == 0
    shape, colours, covered = _picture_stats(only)
    assert covered > 0.01 and colours > 20


def test_gif_movie_has_every_frame(tmp_path, postproc_run):
    _require_rendering()
    from PIL import Image

    from dem.output.render import render_movie

    gif = render_movie(postproc_run.out_dir, tmp_path / "m.gif", fps=10, size=(160, 120))
    with Image.open(gif) as im:
        assert im.size == (160, 120) and im.n_frames == len(postproc_run.frames)


def test_mp4_movie_or_a_clear_error(tmp_path, postproc_run):
    _require_rendering()
    from dem.output.render import render_movie

    try:
        import imageio_ffmpeg

        imageio_ffmpeg.get_ffmpeg_exe()
    except (ImportError, RuntimeError):
        with pytest.raises(ImportError, match="imageio-ffmpeg"):
            render_movie(postproc_run.out_dir, tmp_path / "m.mp4", size=(160, 120))
        return
    import imageio.v2 as imageio

    mp4 = render_movie(postproc_run.out_dir, tmp_path / "m.mp4", fps=10, size=(160, 120), stride=2)
    with imageio.get_reader(mp4) as r:
        assert r.count_frames() == len(range(0, len(postproc_run.frames), 2))
        assert tuple(r.get_meta_data()["size"]) == (160, 120)


def test_bad_options_are_named(tmp_path, postproc_run, capsys):
    """Checked before any rendering: these run without an OpenGL context, and without pyvista."""
    from dem.cli.main import main

    d = str(postproc_run.out_dir)
    cases = [
        (["--color-by", "speed"], "--color-by must be"),
        (["--color-by", "velocity:w"], "--color-by component must be one of"),
        (["--camera", "1,2"], "--camera must be one of"),
        (["--movie", str(tmp_path / "m.avi")], "--movie must end in one of"),
        (["--out", str(tmp_path / "a.jpg")], "--out must be a .png file"),
        (["--frame", "99"], "frame must be an integer in"),
        (["--size", "8", "8"], "--size must be two integers"),
        (["--zoom", "0"], "--zoom must be > 0"),
        (["--movie", str(tmp_path / "m.gif"), "--fps", "0"], "--fps must be > 0"),
        (["--movie", str(tmp_path / "m.gif"), "--out", str(tmp_path / "a.png")], "--out is for a single picture"),
        (["--opacity", "0"], "--opacity must be in (0, 1]"),
        (["--contacts-only", "--no-contacts"], "leave nothing to draw"),
    ]
    for extra, message in cases:
        assert main(["render", d, *extra]) == 2, extra
        assert message in capsys.readouterr().err, extra
    assert main(["render", str(tmp_path / "nowhere")]) == 2
    assert "out_dir must be an output folder" in capsys.readouterr().err


def test_option_parsers():
    assert parse_color_by("velocity") == ("velocity", None)
    assert parse_color_by("contact_force:z") == ("contact_force", 2)
    d, up = parse_camera("0,0,5")
    assert np.allclose(d, [0, 0, 1]) and np.allclose(up, [0, 1, 0])
    with pytest.raises(ValueError, match="not all zero"):
        parse_camera("0,0,0")


def test_missing_pyvista_gives_an_install_command_that_works(monkeypatch, postproc_run):
    """dem is not on PyPI ('pip install dem[vis]' would fetch an unrelated package): the message names the
    editable install from the checkout."""
    import sys

    from dem.output.results import load_results

    monkeypatch.setitem(sys.modules, "pyvista", None)  # import pyvista → ImportError
    ok, why = can_render()
    assert not ok and "pip install -e '.[vis]'" in why
    with pytest.raises(ImportError, match=r"pip install -e '\.\[vis\]'"):
        load_results(postproc_run.out_dir).pyvista_frame(-1)


def test_movie_of_a_body_in_the_air_on_a_moving_table(tmp_path, ti_cpu):
    """(Issue 32: `dem render --movie` stopped on frames without contact force, "Empty meshes cannot be plotted",
    and its camera stayed put while the table carried the bodies out of the picture.) A box dropped 2 cm onto a
    table that moves at 1 m/s along x: the movie has every frame, and the camera has moved with the box along x
    by its own travel (the box rides the table once it lands), not at all across or up."""
    _require_rendering()
    import dem
    from dem.model.walls import WallMotion
    from dem.output.paraview import VtkWriter
    from dem.output.render import FrameRenderer
    from dem.output.results import load_results
    from dem.run.driver import run_scene
    from dem.scenes.scene import Scene

    stone = dem.Material.hertz(young=5e9, poisson=0.25, friction=0.8, damping_normal=0.3, damping_shear=0.3,
                               density=2500.0)
    tpl = dem.box_clump(0.1, 0.1, 0.1, r_core=0.02)
    b = dem.ModelBuilder()
    b.add_wall((0, 0, 0), (0, 0, 1), material=stone, name="table", motion=WallMotion.constant((1.0, 0.0, 0.0)))
    b.add_clump(tpl, material=stone, position=(0, 0, 0.07), name="box")
    model = b.finalize()
    out = tmp_path / "run"
    res = run_scene(Scene("drop", model, [], 1e-4, 0.4, 1e-3, {}), out_dir=out, frame_dt=0.05, progress=False,
                    plots=False, frame_writer=lambda: VtkWriter(out, model))
    results = load_results(out)
    r = FrameRenderer(results, size=(160, 120))
    try:
        r.draw(0)
        focal0 = np.asarray(r.plotter.camera.focal_point)
        for k in range(1, len(results.frames)):
            r.draw(k)  # the first frames: the box in the air, no contact
        moved = np.asarray(r.plotter.camera.focal_point) - focal0
        # contacts that carry no force (separating: the no-tension law gives F_n = 0 while δ > 0) draw no tube,
        # where an empty tube mesh was handed to the plotter
        from types import SimpleNamespace

        two = SimpleNamespace(points=np.zeros((4, 3)), cell_data={"fn": [np.zeros(2)], "normal": [np.ones((2, 3))]})
        read = results.read_frame
        results.read_frame = lambda k, part="spheres": two if part == "contacts" else read(k, part)
        assert r._force_tubes(len(results.frames) - 1, r.results.read_frame(-1, "spheres")) is None
        results.read_frame = read
    finally:
        r.close()
    travel = res.history["t"]  # the box's own travel along x from the first frame to the last
    x = np.asarray(results.read_frame(-1, "spheres").points, float)[:, 0].mean() - \
        np.asarray(results.read_frame(0, "spheres").points, float)[:, 0].mean()
    assert len(travel) and x > 0.1  # it rode the table
    assert moved[0] == pytest.approx(x, rel=0.05) and abs(moved[1]) < 1e-9 and abs(moved[2]) < 1e-9
