"""Load factor of a four-hinge mechanism by virtual work: the kinematic (upper-bound) side of the LP.

An arch (or any chain of blocks grounded at both ends) with four hinges is a one-degree-of-freedom
four-bar linkage (Heyman 1966, §3; Oppenheim 1992, "The masonry arch as a four-link mechanism under base
motion", Earthquake Eng. Struct. Dyn. 21, 1005–1017). Link 1 turns about hinge A, link 3 about hinge D, and
link 2 moves so that its hinge B follows link 1 and its hinge C follows link 3. The load factor at which the
gravity loads W and the horizontal loads λW do no net work on any virtual motion,
    λ = Σ W v_z(G) / Σ W v_x(G),
is the kinematic load factor of that mechanism; for the hinges the static LP finds, it equals the LP's λ
(uniqueness theorem of limit analysis, Heyman 1966), which is what the tests check.

Positions [m], weights [N]; the rotation rate of link 1 is set to 1 rad/s (λ does not depend on it).
"""

from __future__ import annotations

import numpy as np


def _perp(v: np.ndarray) -> np.ndarray:
    """ẑ-rotation of (x, z) by +90°: the velocity [m/s] of a point at offset v [m] under a unit rotation rate."""
    return np.array([-v[1], v[0]])


def chain_hinge_load_factor(centroids: np.ndarray, weights: np.ndarray, hinge_joints: tuple[int, int, int, int],
                            hinge_points: np.ndarray) -> float:
    """Kinematic load factor λ [-] of a chain of blocks with four hinges.

    centroids (b, 2) [m] and weights (b,) [N] of the chain's blocks in order: block k lies between joint k
    and joint k + 1 (joint 0 and joint b on the ground). hinge_joints: the four joint indices, ascending;
    hinge_points (4, 2) [m]: the edge of each of those joints the hinge turns about. Blocks outside the
    first and last hinge do not move.
    """
    g = np.asarray(centroids, dtype=float)
    w = np.asarray(weights, dtype=float)
    j1, j2, j3, j4 = (int(j) for j in hinge_joints)
    if not (0 <= j1 < j2 < j3 < j4 <= len(w)):
        raise ValueError(f"hinge_joints must be ascending within [0, {len(w)}], got {hinge_joints!r}")
    a, b, c, d = np.asarray(hinge_points, dtype=float)
    v_b = _perp(b - a)  # link 1 turns at 1 rad/s about A
    # Link 2: v(P) = v_B + ω2 ⊥(P − B); link 3: v(P) = ω3 ⊥(P − D); equal at C.
    lhs = np.column_stack([_perp(c - b), -_perp(c - d)])
    omega2, omega3 = np.linalg.solve(lhs, -v_b)
    vel = np.zeros_like(g)
    for k in range(len(w)):
        if j1 <= k < j2:
            vel[k] = _perp(g[k] - a)
        elif j2 <= k < j3:
            vel[k] = v_b + omega2 * _perp(g[k] - b)
        elif j3 <= k < j4:
            vel[k] = omega3 * _perp(g[k] - d)
    return float((w * vel[:, 1]).sum() / (w * vel[:, 0]).sum())
