"""Statics of a stack of rigid blocks under a held horizontal base acceleration a: which joint opens first.

Blocks stand one on another, centred on one vertical axis; joint k is the base of block k (joint 0 on the
ground). Under a held acceleration a the blocks above joint k carry, in the base's frame, their weight
m_k g down and the inertial force m_k a sideways at their common centre of mass, z_k above the joint
(m_k the mass of blocks k, k+1, …). The stack is statically determinate: the resultant on joint k has
N = m_k g, V = m_k a and eccentricity e = (a/g) z_k, so joint k opens (the upper part tips about the edge
of the joint's contact face, half-width b_k) when

    a/g > b_k / z_k,                                          (1)

the uplift threshold of a rigid block, g b/h for a box of half-width b whose centre of mass is h above the
pivot (Housner 1963; Zhang & Makris 2001: |ü_g| > g tan α), applied to the rigid upper part of the stack;
for a drum b_k is the radius R of the rim it pivots on. The contact face of joint k is the smaller of the
two faces that meet there, so b_k = min(bottom half-width of block k, top half-width of block k − 1).

Rigid-body sliding at joint k needs V > μ_k N, i.e. a/g > μ_k (2), the same at every joint with the same
μ; the stack slides before it rocks when μ < min_k b_k/z_k (Shenton 1996 for one block: slide first when
μ < b/h). Accelerations in units of g [-]; heights [m]; masses [kg].
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from validation.stack.blocks import Box, Drum


@dataclass(frozen=True)
class StackThresholds:
    """Per joint k (0 = on the ground), shape (block_count,):

    rocking: a/g [-] at which joint k opens, Eq. (1).
    sliding: a/g [-] at which joint k slides, Eq. (2) (inf where μ is None: no sliding).
    contact_half_width: b_k [m]; com_height: z_k [m] of the blocks above joint k; mass_above: m_k [kg].
    first_joint: the joint that opens first (lowest rocking threshold; the lowest joint on a tie).
    first_event: ("rock" or "slide", joint, a/g) for the lowest threshold of all; rocking wins a tie
    (at a/g = μ = b/h exactly the stack is at both limits; the DEM decides).
    """

    rocking: np.ndarray
    sliding: np.ndarray
    contact_half_width: np.ndarray
    com_height: np.ndarray
    mass_above: np.ndarray

    @property
    def first_joint(self) -> int:
        return int(np.argmin(self.rocking))

    @property
    def first_event(self) -> tuple[str, int, float]:
        k_r, k_s = self.first_joint, int(np.argmin(self.sliding))
        if self.sliding[k_s] < self.rocking[k_r]:
            return "slide", k_s, float(self.sliding[k_s])
        return "rock", k_r, float(self.rocking[k_r])


def stack_thresholds(blocks: Sequence[Box | Drum], *, density: float | Sequence[float] = 2500.0,
                     mu: float | Sequence[float] | None = None) -> StackThresholds:
    """Opening and sliding thresholds a/g [-] of every joint of a centred stack, bottom block first.

    density: [kg/m³], one for all blocks or one per block (masses = density × volume). mu: Coulomb friction
    [-] at every joint, one value or one per joint (joint 0 on the ground); None: no sliding.
    """
    n = len(blocks)
    if n == 0:
        raise ValueError("blocks must not be empty")
    rho = np.broadcast_to(np.asarray(density, dtype=float), (n,))
    if not np.all(np.isfinite(rho) & (rho > 0.0)):
        raise ValueError(f"density must be finite and > 0 kg/m³, got {density!r}")
    mass = rho * np.array([b.volume for b in blocks])
    base = np.concatenate([[0.0], np.cumsum([b.height for b in blocks])[:-1]])  # height of joint k [m]
    z_g = base + np.array([b.centroid_height for b in blocks])  # block centroids [m]

    m_above = np.cumsum(mass[::-1])[::-1]
    z_above = np.cumsum((mass * z_g)[::-1])[::-1] / m_above - base
    half = np.array([blocks[0].bottom_half_width] + [min(blocks[k].bottom_half_width, blocks[k - 1].top_half_width)
                                                     for k in range(1, n)])
    rocking = half / z_above
    if mu is None:
        sliding = np.full(n, math.inf)
    else:
        sliding = np.broadcast_to(np.asarray(mu, dtype=float), (n,)).copy()
        if not np.all(np.isfinite(sliding) & (sliding >= 0.0)):
            raise ValueError(f"mu must be finite and >= 0, got {mu!r}")
    return StackThresholds(rocking, sliding, half, z_above, m_above)
