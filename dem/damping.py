"""Layout of a clump's damping block, the dashpots' share of the law of motion when they are applied
implicitly (the default; see integrator.py).

A block holds, for one clump and one step: the upper triangle of the 6×6 generalised damping matrix
C = Σ JᵀDJ about the centre of mass [N·s/m, N·s, N·m·s] in world axes, ordered by rows
(u = [v; ω]), then the generalised force of moving walls through the dashpots, Σ JᵀD v_w [N, N·m], then
Σ v_wᵀ D v_w [W] (for the energy ledger). A second per-clump 6-vector (``State.damp_other``) holds the
generalised force that other bodies' motion exerts through the dashpots between bodies, Σ JᵀD v_other
[N, N·m] (v_other: the other body's contact point at t − Δt/2; each body solves implicitly in its own
velocity only, see integrator.py). Kept apart because Taichi handles vectors of at most 32 entries well.
"""

DAMP_MATRIX_SIZE = 21
DAMP_FORCE = 21
DAMP_SCALAR = 27
DAMP_WIDTH = 28


def damp_index(i: int, j: int) -> int:
    """Position of C[i, j] (i ≤ j) in the block (row-major upper triangle of a 6×6 matrix)."""
    if i > j:
        i, j = j, i
    return i * 6 - i * (i - 1) // 2 + (j - i)
