"""Bad structures (issue 22, "Bad input"): non-convex or degenerate polygons, a drum narrower than its
spheres, an arch whose voussoirs cannot be built (one voussoir over 180°, voussoirs narrower than a
sphere, joint zones that meet), zero or negative dimensions, an unknown bond, walls and courses that do
not divide. Through the command line (``dem run SCENE --set key=value``, the CLI's main in this process):
exit status 2 and one line ``dem: error: ...`` naming the parameter and its allowed range, before the
run's folder or any body exists. Through the builders: a ValueError saying the same, with nothing added
to the model.
"""

import math

import pytest

from dem.cli.main import main
from dem.model.arch import arch
from dem.model.assembly import column
from dem.model.drum_clump import drum_clump
from dem.model.masonry_wall import masonry_wall
from dem.model.materials import Material
from dem.model.model import ModelBuilder
from dem.model.prism_clump import prism_clump
from tests._reliability import QUIET, one_error_line

CLI_CASES = [
    # zero or negative dimensions: the scene's parameter ranges
    ("drum_column", "shaft_height=0", "parameter 'shaft_height' must be in (0, inf) m, got 0.0"),
    ("drum_column", "drums=0", "parameter 'drums' must be in [1, 200], got 0"),
    ("arch", "depth=-0.3", "parameter 'depth' must be in (0, inf) m, got -0.3"),
    ("masonry_wall", "thickness=0", "parameter 'thickness' must be in (0, inf) m, got 0.0"),
    ("vehicle_packages", "box_height=-1", "parameter 'box_height' must be in (0, inf) m, got -1.0"),
    ("vehicle_packages", "box_stack=0", "parameter 'box_stack' must be in [1, 50], got 0"),
    # a drum narrower than its spheres
    ("drum_column", "radius=0.01", "radius and top_radius must be >= r_joint and r_core (>= 0.06 m: a drum at "
     "least one sphere wide), got 0.01 m and 0.245 m"),
    # the default shaft, 3.19 m in 12 drums: zones under both faces of a drum leave a core
    ("drum_column", "zone=0.2", f"zone must be in [0, {3.19 / 12 / 2:.6g}) m: less than half a drum's height"),
    ("vehicle_packages", "drum_radius=0.005", "drum_radius must be >= max(r_core, r_joint) = 0.04 m"),
    ("vehicle_packages", "box_width=0.05", "box_width must be >= 2 × max(r_core, r_joint) = 0.08 m"),
    ("vehicle_packages", "drum_height=0.01", "zone must be < drum_height = 0.01 m"),
    # arches whose voussoirs cannot be built
    ("arch", "voussoirs=1", "voussoirs must be >= 2 for an embrace of 180°"),
    # the default arch: R = 1 m, t = 0.15 m (extrados 1.075 m), r_core = 0.025 m, zone = 0.035 m; a voussoir
    # of Δ = π/n is 1.075 sin Δ wide across its joints, and its joint zones meet at half that
    ("arch", "voussoirs=300", f"voussoirs must be <= {int(math.pi / math.asin(0.05 / 1.075))} for this arch"),
    ("arch", "voussoirs=60", f"zone must be < {1.075 * math.sin(math.pi / 60) / 2:.6g} m with 60 voussoirs"),
    ("arch", "r_core=0.2", "r_core and r_joint must be <= half the voussoirs' width across the intrados"),
    ("arch", "thickness=2.5", "thickness must be < 2 × radius = 2.0 m"),
    ("arch", "embrace_deg=120", "abutment_height must be > 0 [m] with embrace_deg < 180"),
    # walls: an unknown bond, courses and blocks that do not divide the wall
    ("masonry_wall", "bond=english", "parameter 'bond' must be one of stack, running, got 'english'"),
    ("masonry_wall", "course_height=0.25", "height=0.6 m must be a whole number of courses of course_height=0.25 m"),
    ("masonry_wall", "block_length=0.5", "length=1.2 m must be a whole number of blocks of block_length=0.5 m"),
    ("masonry_wall", "block_length=1.2", "a running bond needs at least 2 blocks a course: block_length must be <= "
     "length / 2"),
    ("masonry_wall", "zone=0.15", "zone must be < half the course height 0.1 m"),
]


@pytest.mark.parametrize("scene, assignment, words", CLI_CASES)
def test_bad_structures_end_in_one_error_line(ti_cpu, tmp_path, capsys, scene, assignment, words):
    out = tmp_path / "run"
    capsys.readouterr()
    code = main(["run", f"scenes/{scene}.py", *QUIET, "--out", str(out), "--set", assignment])
    err = capsys.readouterr().err
    assert code == 2
    line = one_error_line(err)
    assert err.count("dem: error:") == 1 and words in line, line
    assert not out.exists()  # refused before the run's folder (or any model) was made


STONE = Material.hertz(young=50e9, poisson=0.25, friction=0.7, density=2000.0)
SQUARE = [(0, 0), (1, 0), (1, 1), (0, 1)]


@pytest.mark.parametrize("vertices, words", [
    (SQUARE[::-1], "these run clockwise (reverse their order)"),
    ([(0, 0), (0.5, 0), (1, 0), (1, 1), (0, 1)], "vertex 1 is collinear with its neighbours"),
    ([(0, 0), (1, 1), (1, 0), (0, 1)], "its edges 0 and 2 cross (a self-intersecting polygon)"),  # a bow tie
    ([(0, 0), (1, 0), (0.5, 0.2), (1, 1), (0, 1)], "not convex at vertex 2"),
    ([(math.cos(t), math.sin(t)) for t in [math.radians(a) for a in (90, 234, 18, 162, 306)]], "edges cross"),
    ([(0, 0), (1, 0)], "got shape (2, 2)"),
])
def test_bad_polygons_name_the_vertices_and_what_they_must_be(vertices, words):
    with pytest.raises(ValueError) as info:
        prism_clump(vertices, 0.3, r_core=0.02)
    msg = str(info.value)
    assert msg.startswith("vertices must be a convex polygon: n >= 3 distinct (x, z) points [m], counter-clockwise")
    assert words in msg and "\n" not in msg


def _builder():
    b = ModelBuilder(gravity=(0.0, 0.0, -9.81))
    return b, b.add_wall((0, 0, 0), (0, 0, 1), material=STONE, name="table")


ARCH = dict(radius=1.0, thickness=0.15, voussoirs=9, depth=0.3, material=STONE, r_core=0.025, r_joint=0.01,
            zone=0.035)
WALL = dict(length=1.2, height=0.6, thickness=0.2, course_height=0.2, block_length=0.4, material=STONE, r_core=0.05)


@pytest.mark.parametrize("build, words", [
    (lambda b, t: arch(b, **(ARCH | {"voussoirs": 1}), base=t), "voussoirs must be >= 2"),
    (lambda b, t: arch(b, **(ARCH | {"voussoirs": 300}), base=t),
     f"voussoirs must be <= {int(math.pi / math.asin(0.05 / 1.075))}"),
    (lambda b, t: arch(b, **(ARCH | {"radius": -1.0}), base=t), "radius must be a finite number > 0 [m]"),
    (lambda b, t: column(b, drums=3, height=0.9, radius=0.02, material=STONE, r_core=0.03, base=t),
     "radius and top_radius must be >= r_joint and r_core (>= 0.03 m"),
    (lambda b, t: masonry_wall(b, **(WALL | {"bond": "flemish"}), base=t),
     "bond must be one of stack, running, got 'flemish'"),
    (lambda b, t: masonry_wall(b, **(WALL | {"height": 0.0}), base=t), "height must be a finite number > 0 [m]"),
    (lambda b, t: drum_clump(0.01, 0.3, r_core=0.02), "radius and top_radius must be >= r_joint = 0.02 m"),
])
def test_builders_refuse_before_adding_a_body(build, words):
    b, table = _builder()
    with pytest.raises(ValueError) as info:
        build(b, table)
    assert words in str(info.value), str(info.value)
    assert not b.clumps and not b.interfaces
