"""The solids a stack is built of: boxes and (optionally tapered) drums, with volume and centroid height.

Lengths [m], volumes [m³], density [kg/m³], masses [kg]. Each solid stands on its base face; `bottom_half_width`
and `top_half_width` are the half-widths [m] of its base and top faces in the plane of shaking: the edge a
box pivots on is b from the axis, the rim point a drum pivots on is its radius R from the axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


def _positive(name: str, value: float) -> float:
    v = float(value)
    if not (math.isfinite(v) and v > 0.0):
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return v


@dataclass(frozen=True)
class Box:
    """A box: half-width b [m] along the shaking, height h [m], depth d [m] across it (None: 2b, square plan)."""

    half_width: float
    height: float
    depth: float | None = None

    def __post_init__(self) -> None:
        _positive("half_width", self.half_width)
        _positive("height", self.height)
        if self.depth is not None:
            _positive("depth", self.depth)

    @property
    def bottom_half_width(self) -> float:
        """Half-width [m] of the base face along the shaking."""
        return float(self.half_width)

    @property
    def top_half_width(self) -> float:
        """Half-width [m] of the top face along the shaking."""
        return float(self.half_width)

    @property
    def volume(self) -> float:
        """2b × d × h [m³]."""
        d = 2.0 * self.half_width if self.depth is None else self.depth
        return 2.0 * self.half_width * d * self.height

    @property
    def centroid_height(self) -> float:
        """Height [m] of the centroid above the base face: h/2."""
        return 0.5 * self.height


@dataclass(frozen=True)
class Drum:
    """A drum: base radius R [m], height h [m], top radius [m] (None: R; other: a frustum, as with entasis)."""

    radius: float
    height: float
    top_radius: float | None = None

    def __post_init__(self) -> None:
        _positive("radius", self.radius)
        _positive("height", self.height)
        if self.top_radius is not None:
            _positive("top_radius", self.top_radius)

    @property
    def bottom_half_width(self) -> float:
        """Base radius R [m]: the drum pivots on its rim."""
        return float(self.radius)

    @property
    def top_half_width(self) -> float:
        """Top radius [m]."""
        return float(self.radius if self.top_radius is None else self.top_radius)

    @property
    def volume(self) -> float:
        """Frustum π h (R₁² + R₁R₂ + R₂²)/3 [m³] (π R² h for a cylinder)."""
        r1, r2 = self.bottom_half_width, self.top_half_width
        return math.pi * self.height * (r1 * r1 + r1 * r2 + r2 * r2) / 3.0

    @property
    def centroid_height(self) -> float:
        """Height [m] above the base: h (R₁² + 2R₁R₂ + 3R₂²) / (4 (R₁² + R₁R₂ + R₂²)) (h/2 for a cylinder).

        ∫ z π r(z)² dz ÷ ∫ π r(z)² dz with r linear from R₁ at z = 0 to R₂ at z = h.
        """
        r1, r2 = self.bottom_half_width, self.top_half_width
        return self.height * (r1 * r1 + 2 * r1 * r2 + 3 * r2 * r2) / (4.0 * (r1 * r1 + r1 * r2 + r2 * r2))
