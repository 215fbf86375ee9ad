"""Areas and centroids of the plane shapes the blocks are cut from: polygons and annular sectors.

Coordinates (x, z) [m] in the plane of the arch, z up. Areas [m²]; a block's weight is area × depth [m] ×
density [kg/m³] × g [m/s²].
"""

from __future__ import annotations

import math

import numpy as np


def polygon_area_centroid(vertices: np.ndarray) -> tuple[float, np.ndarray]:
    """Area [m²] and centroid (x, z) [m] of a simple polygon, vertices (k, 2) [m] in either orientation.

    Shoelace (Gauss) formula: A = ½ Σ c_i with c_i = x_i z_{i+1} − x_{i+1} z_i, centroid = Σ (p_i + p_{i+1}) c_i
    / (6A) (Green's theorem applied to ∫∫ dA and ∫∫ p dA).
    """
    p = np.asarray(vertices, dtype=float)
    if p.ndim != 2 or p.shape[1] != 2 or p.shape[0] < 3:
        raise ValueError(f"vertices must have shape (k >= 3, 2), got {p.shape}")
    q = np.roll(p, -1, axis=0)
    cross = p[:, 0] * q[:, 1] - q[:, 0] * p[:, 1]
    area = 0.5 * float(cross.sum())
    if abs(area) <= 1e-14 * float(np.ptp(p, axis=0).prod() + 1e-300):
        raise ValueError("vertices enclose no area (collinear or repeated points)")
    centroid = ((p + q) * cross[:, None]).sum(axis=0) / (6.0 * area)
    return abs(area), centroid


def annular_sector_area_centroid(r_in: float, r_out: float, angle_from: float, angle_to: float
                                 ) -> tuple[float, np.ndarray]:
    """Area [m²] and centroid (x, z) [m] of the annular sector r_in ≤ r ≤ r_out, angle_from ≤ φ ≤ angle_to [rad].

    Centred on the origin, φ measured from +x towards +z. Exact: A = Δφ (r_out² − r_in²)/2 and the centroid
    on the bisector at r_G = (2/3)(r_out³ − r_in³)/(r_out² − r_in²) · sin(Δφ/2)/(Δφ/2) (the sector's first
    moment ∫∫ r cos(φ − φ_m) r dr dφ ÷ A, integrated in closed form).
    """
    if not (0.0 <= r_in < r_out):
        raise ValueError(f"need 0 <= r_in < r_out, got r_in={r_in!r}, r_out={r_out!r}")
    span = angle_to - angle_from
    if not span > 0.0:
        raise ValueError(f"need angle_to > angle_from, got {angle_from!r}, {angle_to!r}")
    area = 0.5 * span * (r_out**2 - r_in**2)
    half = 0.5 * span
    r_g = (2.0 / 3.0) * (r_out**3 - r_in**3) / (r_out**2 - r_in**2) * math.sin(half) / half
    mid = angle_from + half
    return area, np.array([r_g * math.cos(mid), r_g * math.sin(mid)])
