"""Assemblies to analyse: a circular arch of voussoirs with radial joints (on the ground or on two abutment
piers), and a rectangular pier (one block on the ground, the case solved by hand: λ = b/h).

Lengths [m], angles [rad], density [kg/m³], g [m/s²]; weights come out in N. The arch lies in the x–z plane
with its centre at the origin; φ is measured from +x towards +z, the arch spans φ0 = π/2 − β/2 to
π − φ0 (β the embrace angle, π for a semicircular arch) and voussoir i spans φ0 + iΔ to φ0 + (i+1)Δ,
Δ = β/n. Joint i is the radial joint at φ0 + iΔ (joint 0 the right springing, joint n the left one).
"""

from __future__ import annotations

import math

import numpy as np

from validation.arch.assembly import GROUND, Assembly, Block, Joint
from validation.arch.sections import annular_sector_area_centroid, polygon_area_centroid

STANDARD_GRAVITY = 9.81
"""g [m/s²]."""


def _positive(name: str, value: float) -> float:
    v = float(value)
    if not (math.isfinite(v) and v > 0.0):
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return v


def _unit(phi: float) -> np.ndarray:
    return np.array([math.cos(phi), math.sin(phi)])


def arch(radius: float, thickness: float, n_voussoirs: int, *, embrace: float = math.pi, depth: float = 1.0,
         density: float = 2000.0, g: float = STANDARD_GRAVITY, abutment_width: float | None = None,
         abutment_height: float | None = None) -> Assembly:
    """A circular arch of `n_voussoirs` equal voussoirs with radial joints.

    radius R [m] of the centre line, thickness t [m] (intrados R − t/2, extrados R + t/2), embrace angle β
    [rad] in (0, π] (π: semicircular; less: segmental), depth d [m] out of plane. Weights from the exact
    annular sectors (`sections.annular_sector_area_centroid`) × d × density × g.

    Without abutments the springing joints rest on the ground. With `abutment_width` w and
    `abutment_height` h_a [m] each springing rests on a pier: its inner face vertical through the intrados
    springing point, its outer face w further out (w must cover the springing joint's horizontal
    projection t cos φ0), its base h_a below the intrados springing point, its top the springing joint (and,
    if w is wider, a horizontal ledge at the extrados springing level). Each pier's base is a joint on the
    ground. Blocks are ordered right pier, voussoirs 0 … n−1, left pier; joints from the right base to the
    left base, so that block k lies between joint k and joint k + 1 (a chain).
    """
    r = _positive("radius", radius)
    t = _positive("thickness", thickness)
    if t >= 2.0 * r:
        raise ValueError(f"thickness must be < 2 × radius (intrados radius > 0), got t={t!r}, R={r!r}")
    n = int(n_voussoirs)
    if n < 1:
        raise ValueError(f"n_voussoirs must be >= 1, got {n_voussoirs!r}")
    beta = _positive("embrace", embrace)
    if beta > math.pi + 1e-12:
        raise ValueError(f"embrace must lie in (0, π] rad, got {embrace!r}")
    unit_weight = _positive("depth", depth) * _positive("density", density) * _positive("g", g)  # N/m²
    r_in, r_out = r - 0.5 * t, r + 0.5 * t
    phi0 = 0.5 * (math.pi - beta)
    angles = phi0 + beta * np.arange(n + 1) / n

    blocks: list[Block] = []
    for i in range(n):
        area, c = annular_sector_area_centroid(r_in, r_out, angles[i], angles[i + 1])
        arc = np.linspace(angles[i], angles[i + 1], 9)
        outline = np.vstack([r_in * np.column_stack([np.cos(arc), np.sin(arc)]),
                             r_out * np.column_stack([np.cos(arc[::-1]), np.sin(arc[::-1])])])
        blocks.append(Block(f"voussoir{i}", area * unit_weight, c, outline))
    # Joint i: start on the intrados, end on the extrados, so n points towards increasing φ (voussoir i).
    joints = [Joint(f"joint{i}", r_in * _unit(a), r_out * _unit(a), i - 1 if i > 0 else GROUND,
                    i if i < n else GROUND) for i, a in enumerate(angles)]

    if abutment_width is None and abutment_height is None:
        return Assembly(tuple(blocks), tuple(joints))
    if abutment_width is None or abutment_height is None:
        raise ValueError("give both abutment_width and abutment_height, or neither")
    w = _positive("abutment_width", abutment_width)
    h_a = _positive("abutment_height", abutment_height)
    if w < t * math.cos(phi0) * (1.0 - 1e-12):
        raise ValueError(f"abutment_width must cover the springing joint, >= t cos φ0 = {t * math.cos(phi0)!r} m, "
                         f"got {abutment_width!r}")
    p_in, p_out = r_in * _unit(phi0), r_out * _unit(phi0)  # right springing
    z_base = p_in[1] - h_a
    x_outer = p_in[0] + w
    right = np.array([p_in, [p_in[0], z_base], [x_outer, z_base], [x_outer, p_out[1]], p_out])
    if x_outer - p_out[0] <= 1e-12 * r:  # no ledge: the outer face meets the extrados springing point
        right = right[[0, 1, 2, 4]]
    left = right[::-1] * np.array([-1.0, 1.0])  # mirror image, kept counter-clockwise
    pier_blocks = []
    for name, outline in (("abutment_right", right), ("abutment_left", left)):
        area, c = polygon_area_centroid(outline)
        pier_blocks.append(Block(name, area * unit_weight, c, outline))

    # Re-index: right pier 0, voussoirs 1 … n, left pier n + 1.
    shift = [Joint(j.name, j.start, j.end, j.minus + 1 if j.minus != GROUND else 0,
                   j.plus + 1 if j.plus != GROUND else n + 1) for j in joints]
    base_right = Joint("base_right", np.array([p_in[0], z_base]), np.array([x_outer, z_base]), GROUND, 0)
    base_left = Joint("base_left", np.array([-x_outer, z_base]), np.array([-p_in[0], z_base]), GROUND, n + 1)
    return Assembly((pier_blocks[0], *blocks, pier_blocks[1]), (base_right, *shift, base_left))


def pier(half_width: float, height: float, *, depth: float = 1.0, density: float = 2000.0,
         g: float = STANDARD_GRAVITY) -> Assembly:
    """One rectangular block 2b × H [m] (b = half_width, H = height) standing on the ground: a one-block "arch".

    Under a horizontal body force λ W it tips about its base edge when λ = b/(H/2) (the moment of λW about
    the edge at height H/2 equals that of W at lever arm b; Housner 1963's uplift threshold tan α).
    """
    b, h = _positive("half_width", half_width), _positive("height", height)
    outline = np.array([[-b, 0.0], [b, 0.0], [b, h], [-b, h]])
    area, c = polygon_area_centroid(outline)
    weight = area * _positive("depth", depth) * _positive("density", density) * _positive("g", g)
    base = Joint("base", np.array([-b, 0.0]), np.array([b, 0.0]), GROUND, 0)
    return Assembly((Block("pier", weight, c, outline),), (base,))
