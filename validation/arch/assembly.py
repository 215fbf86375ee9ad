"""Rigid blocks and the plane joints between them: what the limit analysis reads.

A block has a weight [N] acting at its centroid (x, z) [m]; a joint is a straight segment from `start` to
`end` [m] between block `minus` and block `plus` (GROUND = −1 for the fixed ground). The joint's unit
tangent s runs from start to end and its unit normal n = (−s_z, s_x) (s turned by +90°) points into the
`plus` block: a compressive resultant N > 0 pushes `plus` along +n and `minus` along −n.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GROUND = -1
"""Block index of the fixed ground (no equilibrium equations)."""


@dataclass(frozen=True)
class Block:
    """A rigid block: name, weight [N] (> 0), centroid (x, z) [m], outline (k, 2) [m] (for plots, may be empty)."""

    name: str
    weight: float
    centroid: np.ndarray
    outline: np.ndarray


@dataclass(frozen=True)
class Joint:
    """A plane joint: the segment start → end [m] between block `minus` and block `plus` (indices, or GROUND)."""

    name: str
    start: np.ndarray
    end: np.ndarray
    minus: int
    plus: int

    @property
    def centre(self) -> np.ndarray:
        """Mid-point of the joint (x, z) [m]: moments M are taken about it."""
        return 0.5 * (self.start + self.end)

    @property
    def half_length(self) -> float:
        """Half the joint's length [m]: the resultant stays within ±half_length of the centre."""
        return 0.5 * float(np.hypot(*(self.end - self.start)))

    @property
    def tangent(self) -> np.ndarray:
        """Unit tangent s, start → end [-]."""
        d = self.end - self.start
        return d / float(np.hypot(*d))

    @property
    def normal(self) -> np.ndarray:
        """Unit normal n = (−s_z, s_x) [-], pointing into the `plus` block."""
        s = self.tangent
        return np.array([-s[1], s[0]])


@dataclass(frozen=True)
class Assembly:
    """Blocks and joints. Each block must touch at least one joint; the ground never appears as both sides."""

    blocks: tuple[Block, ...]
    joints: tuple[Joint, ...]

    def __post_init__(self) -> None:
        n = len(self.blocks)
        for b in self.blocks:
            if not (np.isfinite(b.weight) and b.weight > 0.0):
                raise ValueError(f"block {b.name}: weight must be finite and > 0 N, got {b.weight!r}")
        for j in self.joints:
            for side in (j.minus, j.plus):
                if side != GROUND and not (0 <= side < n):
                    raise ValueError(f"joint {j.name}: block index {side} outside [0, {n})")
            if j.minus == j.plus:
                raise ValueError(f"joint {j.name}: minus and plus are the same block")
            if j.half_length <= 0.0:
                raise ValueError(f"joint {j.name}: zero length")
            # A convex block lies on one side of each of its faces: n must point into `plus`, away from `minus`.
            for side, sign in ((j.plus, 1.0), (j.minus, -1.0)):
                if side != GROUND and sign * float(j.normal @ (self.blocks[side].centroid - j.centre)) <= 0.0:
                    raise ValueError(f"joint {j.name}: its normal does not point into its plus block "
                                     f"(swap start and end, or minus and plus)")

    @property
    def total_weight(self) -> float:
        """Sum of the block weights [N]."""
        return float(sum(b.weight for b in self.blocks))

    @property
    def length_scale(self) -> float:
        """Largest extent [m] of the joints and centroids: the LP's length unit."""
        pts = np.array([p for j in self.joints for p in (j.start, j.end)] + [b.centroid for b in self.blocks])
        return float(np.max(np.ptp(pts, axis=0)))
