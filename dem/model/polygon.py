"""Convex polygons in a plane: the check that a list of vertices is one, its area, centroid and second
moments, and the lines through it (chords, distances to its edges) that the prism builder lays its rows on.

Coordinates (u, v) [m]; the prism builder (dem.model.prism_clump) reads them as (x, z). Edge k runs from
vertex k to vertex k + 1; with the vertices counter-clockwise the inside is on the left of every edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# relative tolerance of the convexity test: a turn whose sine is below this is "straight" (collinear vertices)
TURN_TOL = 1e-9


def check_convex_polygon(vertices, name: str = "vertices") -> np.ndarray:
    """The vertices as an (n, 2) float array, or ValueError naming `name` and what it must be: n ≥ 3 finite
    points, distinct, counter-clockwise, every turn strictly to the left (convex, no three consecutive
    vertices collinear), going round once (not self-intersecting)."""
    what = f"{name} must be a convex polygon: n >= 3 distinct (x, z) points [m], counter-clockwise"
    try:
        v = np.asarray(vertices, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{what}; got {vertices!r}") from None
    if v.ndim != 2 or v.shape[1] != 2 or v.shape[0] < 3:
        raise ValueError(f"{what}; got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{what}; got a non-finite coordinate")
    e = np.roll(v, -1, axis=0) - v
    length = np.hypot(e[:, 0], e[:, 1])
    scale = float(np.max(np.abs(v - v.mean(axis=0)))) or 1.0
    if np.any(length <= 1e-12 * scale):
        k = int(np.argmin(length))
        raise ValueError(f"{what}; vertices {k} and {(k + 1) % len(v)} coincide")
    nxt = np.roll(e, -1, axis=0)
    sin_turn = (e[:, 0] * nxt[:, 1] - e[:, 1] * nxt[:, 0]) / (length * np.roll(length, -1))
    area = signed_area(v)
    if np.all(sin_turn < TURN_TOL) and area < 0:
        raise ValueError(f"{what}; these run clockwise (reverse their order)")
    flat = np.flatnonzero(np.abs(sin_turn) < TURN_TOL)
    if flat.size:
        raise ValueError(f"{what}; vertex {(int(flat[0]) + 1) % len(v)} is collinear with its neighbours "
                         "(drop it)")
    if np.any(sin_turn < 0):
        crossing = _crossing_edges(v)
        if crossing is not None:
            raise ValueError(f"{what}; its edges {crossing[0]} and {crossing[1]} cross (a self-intersecting polygon)")
        k = (int(np.flatnonzero(sin_turn < 0)[0]) + 1) % len(v)
        raise ValueError(f"{what}; the polygon is not convex at vertex {k}" +
                         (" (or the vertices run clockwise)" if area < 0 else ""))
    turning = float(np.sum(np.arctan2(e[:, 0] * nxt[:, 1] - e[:, 1] * nxt[:, 0], np.sum(e * nxt, axis=1))))
    if abs(turning - 2 * math.pi) > 1e-6:
        raise ValueError(f"{what}; its edges cross (it winds {turning / (2 * math.pi):.0f} times round)")
    return v


def _crossing_edges(v: np.ndarray) -> tuple[int, int] | None:
    """The first two edges (edge k: vertex k → k + 1) that are not neighbours and cross each other, or None
    (a simple polygon); by the signs of the orientation tests, O(n²) (only when a polygon is refused)."""
    n = len(v)
    if n < 4 or n > 2000:
        return None
    a, b = v, np.roll(v, -1, axis=0)

    def orient(p, q, r):  # sign of the turn p → q → r, for every pair of edges (i, j)
        return np.sign((q[:, None, 0] - p[:, None, 0]) * (r[None, :, 1] - p[:, None, 1])
                       - (q[:, None, 1] - p[:, None, 1]) * (r[None, :, 0] - p[:, None, 0]))

    cross = (orient(a, b, a) * orient(a, b, b) < 0) & (orient(a, b, a).T * orient(a, b, b).T < 0)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    cross &= (j > i + 1) & ~((i == 0) & (j == n - 1))  # not an edge with itself or its neighbours
    hits = np.argwhere(cross)
    return (int(hits[0, 0]), int(hits[0, 1])) if len(hits) else None


def signed_area(v: np.ndarray) -> float:
    """Shoelace area [m²], positive for counter-clockwise vertices."""
    x, z = v[:, 0], v[:, 1]
    return 0.5 * float(np.sum(x * np.roll(z, -1) - np.roll(x, -1) * z))


@dataclass(frozen=True)
class PolygonMoments:
    """Area A [m²], centroid (u, v) [m], and second moments about the centroid [m⁴]: J_uu = ∫(u − u_c)² dA,
    J_vv = ∫(v − v_c)² dA, J_uv = ∫(u − u_c)(v − v_c) dA."""

    area: float
    centroid: np.ndarray
    j_uu: float
    j_vv: float
    j_uv: float


def moments(v: np.ndarray) -> PolygonMoments:
    """Area, centroid and second moments of a counter-clockwise polygon by Green's theorem over its edges
    (the standard polygon formulas, e.g. Bourke 1988): with a_k = u_k v_{k+1} − u_{k+1} v_k,
    A = Σa/2, u_c = Σ(u_k + u_{k+1}) a_k / 6A, ∫u² dA = Σ(u_k² + u_k u_{k+1} + u_{k+1}²) a_k / 12,
    ∫uv dA = Σ(u_k v_{k+1} + 2u_k v_k + 2u_{k+1} v_{k+1} + u_{k+1} v_k) a_k / 24; then the parallel-axis
    shift to the centroid. Computed about the first vertex, so that far-off coordinates lose no digits."""
    origin = v[0].copy()
    p = v - origin
    u0, v0 = p[:, 0], p[:, 1]
    u1, v1 = np.roll(u0, -1), np.roll(v0, -1)
    a = u0 * v1 - u1 * v0
    area = 0.5 * float(a.sum())
    uc = float(np.sum((u0 + u1) * a)) / (6 * area)
    vc = float(np.sum((v0 + v1) * a)) / (6 * area)
    i_uu = float(np.sum((u0 * u0 + u0 * u1 + u1 * u1) * a)) / 12
    i_vv = float(np.sum((v0 * v0 + v0 * v1 + v1 * v1) * a)) / 12
    i_uv = float(np.sum((u0 * v1 + 2 * u0 * v0 + 2 * u1 * v1 + u1 * v0) * a)) / 24
    return PolygonMoments(area, origin + np.array([uc, vc]), i_uu - area * uc * uc, i_vv - area * vc * vc,
                          i_uv - area * uc * vc)


def edge_frames(v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per edge k: unit tangent (vertex k → k + 1), unit inward normal (the tangent turned +90°), and
    length [m]; shapes (n, 2), (n, 2), (n,)."""
    e = np.roll(v, -1, axis=0) - v
    length = np.hypot(e[:, 0], e[:, 1])
    t = e / length[:, None]
    return t, np.column_stack([-t[:, 1], t[:, 0]]), length


def inside_distance(v: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Signed distance [m] of each point to each edge's line, positive inside; shape (m, n)."""
    _t, n, _l = edge_frames(v)
    rel = np.asarray(points, float).reshape(-1, 2)[:, None, :] - v[None, :, :]
    return np.einsum("mkd,kd->mk", rel, n)


def chord(v: np.ndarray, point, direction, *, offsets: dict[int, float] | None = None) -> tuple[float, float] | None:
    """The interval [t0, t1] of the line point + t·direction (direction a unit vector) inside the polygon
    whose edge k is moved inwards by offsets[k] [m] (a convex region: the intersection of the edges'
    half-planes), or None where the line misses it."""
    _t, n, _l = edge_frames(v)
    p = np.asarray(point, float)
    d = np.asarray(direction, float)
    lo, hi = -math.inf, math.inf
    for k in range(len(v)):
        c = float(n[k] @ (v[k] - p)) + (offsets or {}).get(k, 0.0)  # need n·(p + t d) − n·v_k ≥ offset
        nd = float(n[k] @ d)
        if abs(nd) < 1e-14:
            if c > 1e-12:
                return None
            continue
        if nd > 0:
            lo = max(lo, c / nd)
        else:
            hi = min(hi, c / nd)
    scale = max(1.0, abs(lo) if math.isfinite(lo) else 1.0, abs(hi) if math.isfinite(hi) else 1.0)
    if hi < lo - 1e-12 * scale:
        return None
    return lo, max(hi, lo)


def extent(v: np.ndarray, direction, *, offsets: dict[int, float] | None = None) -> tuple[float, float] | None:
    """Lowest and highest value of direction·x over the polygon with edge k moved inwards by offsets[k] [m],
    or None if that region is empty: its vertices are those of the clipped region."""
    d = np.asarray(direction, float)
    pts = clip(v, offsets or {})
    if pts is None:
        return None
    s = pts @ d
    return float(s.min()), float(s.max())


def clip(v: np.ndarray, offsets: dict[int, float]) -> np.ndarray | None:
    """Vertices of the polygon with edge k moved inwards by offsets[k] [m] (Sutherland–Hodgman clipping of
    the polygon by each moved half-plane), or None if nothing is left."""
    _t, n, _l = edge_frames(v)
    pts = v.copy()
    for k, off in offsets.items():
        if len(pts) == 0:
            return None
        c = float(n[k] @ v[k]) + off
        s = pts @ n[k] - c
        out = []
        for i in range(len(pts)):
            j = (i + 1) % len(pts)
            if s[i] >= 0:
                out.append(pts[i])
            if (s[i] >= 0) != (s[j] >= 0):
                out.append(pts[i] + (pts[j] - pts[i]) * (s[i] / (s[i] - s[j])))
        pts = np.asarray(out).reshape(-1, 2)
    return pts if len(pts) else None
