"""Small models shared by the tests."""

import math

import numpy as np


def sphere_on_wall(dem, *, radius=0.01, mass=0.05, height=0.02, velocity=(0.0, 0.0, -1.0), gravity=(0.0, 0.0, 0.0),
                   material=None):
    """A one-sphere clump above a plane z = 0 (returns the finalized model)."""
    mat = material or dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5)
    b = dem.ModelBuilder(gravity=gravity)
    b.add_clump(dem.single_sphere(radius), material=mat, mass=mass, mass_from="spheres", position=(0, 0, height),
                velocity=velocity)
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, name="floor")
    return b.finalize()


def block_on_floor(dem, *, width=0.1, height=0.1, thickness=0.1, r=0.01, mass=2.0, mu=0.5, beta=0.2, theta=0.0,
                   gravity=(0.0, 0.0, -9.81), shear_modulus=1e9, gap=0.0, interface=False):
    """A small box clump (one sphere size) standing on a plane z = 0, optionally tilted about y."""
    mat = dem.Material.hertz(shear_modulus=shear_modulus, poisson=0.25, friction=mu, damping_normal=beta,
                             damping_shear=beta)
    tpl = dem.box_clump(width, height, thickness, r_core=r)
    c, s = math.cos(theta), math.sin(theta)
    rot = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    low = float(np.min((tpl.centers @ rot.T)[:, 2] - tpl.radii))
    b = dem.ModelBuilder(gravity=gravity)
    k = b.add_clump(tpl, material=mat, mass=mass, orientation=rot, position=(0, 0, -low + gap), name="block")
    w = b.add_wall((0, 0, 0), (0, 0, 1), material=mat, name="floor")
    if interface:
        b.add_interface("base", k, wall=w)
    return b.finalize()


def energies(rows):
    """Ledger columns of history rows."""
    from dem.physics.history_rows import GLOBAL_COLUMNS

    return {name: rows[:, i] for i, name in enumerate(GLOBAL_COLUMNS)}


def tilted_stack(dem, *, theta=0.05, shear_unloading="incremental", joints="solid"):
    """A block tilted about y on the floor carrying a second block: wall and body–body contacts at once (joints:
    dem.ModelBuilder's)."""
    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.25, friction=0.5, damping_normal=0.2, damping_shear=0.2,
                             shear_unloading=shear_unloading)
    tpl = dem.box_clump(0.1, 0.1, 0.1, r_core=0.01)
    c, s = math.cos(theta), math.sin(theta)
    rot = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    low = float(np.min((tpl.centers @ rot.T)[:, 2] - tpl.radii))
    b = dem.ModelBuilder(joints=joints)
    lower = b.add_clump(tpl, material=mat, mass=2.0, orientation=rot, position=(0, 0, -low), name="lower")
    # the upper block touching the lower one's top face along its normal
    up = rot @ np.array([0.0, 0.0, 0.1])
    upper = b.add_clump(tpl, material=mat, mass=1.0, orientation=rot, position=np.array([0, 0, -low]) + up,
                        name="upper")
    floor = b.add_wall((0, 0, 0), (0, 0, 1), material=mat, name="floor")
    b.add_interface("top", upper, other=lower)
    b.add_interface("base", lower, wall=floor)
    return b.finalize()


def block_on_sphere_bed(dem, *, n=2, r=0.01, mass=2.0, shear_modulus=1e9, poisson=0.28, beta_n=0.0, beta_s=0.0,
                        friction=10.0, load=None, velocity=(0.0, 0.0, 0.0), fixed="rx,ry,rz",
                        damping_mass="body", gravity=(0.0, 0.0, -9.81)):
    """A rigid body on an n × n bed of spheres (radius r, 1.5 r apart) resting on the plane z = 0, placed at
    the Hertz overlap δ0 at which each contact carries ``load`` [N] (default: its share of the weight), so it
    starts in equilibrium. Returns (model, δ0 [m], h_n [N/m^1.5]) with h_n = 2G√(2r)/(3(1−ν)) (004 Eq. 5)."""
    from dem.model.clump import Box
    from dem.physics.contact_law import hertz_stiffness_factor

    s = 1.5 * r
    xy = (np.arange(n) - 0.5 * (n - 1)) * s
    centers = np.array([[x, y, 0.0] for x in xy for y in xy])
    size = (n * s, n * s, 2 * r)
    tpl = dem.spheres(centers, r, solid=Box(size))
    mat = dem.Material.hertz(shear_modulus=shear_modulus, poisson=poisson, friction=friction,
                             damping_normal=beta_n, damping_shear=beta_s, damping_mass=damping_mass)
    h_n = hertz_stiffness_factor(shear_modulus, poisson, r)  # R̄ = R_ball against a wall (spec §2)
    f = mass * float(np.linalg.norm(gravity)) / n**2 if load is None else load
    delta0 = (f / h_n) ** (2.0 / 3.0)
    b = dem.ModelBuilder(gravity=gravity)
    b.add_clump(tpl, material=mat, mass=mass, position=(0.0, 0.0, r - delta0), velocity=velocity, fixed=fixed,
                name="block")
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, name="floor")
    return b.finalize(), delta0, h_n


def colliding_boxes(dem, *, gap=0.006, speed=1.0, damping_mass="body", shear_unloading="incremental",
                    sideways=0.0):
    """Two 20 mm boxes of 2 mm spheres flying face to face at ±speed [m/s] from `gap` [m] apart (and at
    ±sideways [m/s] along z), no gravity: when they meet, ~50 sphere pairs are within the skin at once.
    ``damping_mass``, ``shear_unloading`` as dem.Material."""
    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5, damping_normal=0.1,
                             damping_mass=damping_mass, shear_unloading=shear_unloading)
    tpl = dem.box_clump(0.02, 0.02, 0.02, r_core=0.002)
    b = dem.ModelBuilder(gravity=(0.0, 0.0, 0.0))
    for sign in (-1.0, 1.0):
        b.add_clump(tpl, material=mat, mass=0.02, position=(sign * (0.01 + gap / 2), 0, 0),
                    velocity=(-sign * speed, 0, sign * sideways))
    return b.finalize()
