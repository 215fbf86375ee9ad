"""Layout of a clump's damping block, the dashpots' share of the law of motion when they are applied
implicitly (the default; see integrator.py).

A block holds, for one clump and one step: the upper triangle of the 6×6 generalised damping matrix
C = Σ JᵀDJ about the centre of mass [N·s/m, N·s, N·m·s] in world axes, ordered by rows
(u = [v; ω]), then the generalised force of moving walls through the dashpots, Σ JᵀD v_w [N, N·m], then
Σ v_wᵀ D v_w [W] (for the energy ledger). A second per-clump vector (``State.damp_other``) holds the
generalised force that other bodies' motion exerts through the dashpots between bodies, Σ JᵀD ṽ_other
[N, N·m], and the body's velocity change over its last step. Each body solves implicitly in its own
velocity only (integrator.py); the other body's velocity enters as ṽ = u_{n−½} + (u_{n−½} − u_{n−3/2})/2,
extrapolated to the mid-step t_n where the dashpot acts: with u_{n−½} alone the coupling lags by half a
step and the bridge's rocking converged at first order in Δt (1.6 % of the peak tilt at Δt = 2e-4 s on
the coarse pier–deck bridge at 0.1 g; the extrapolation restores second order). Kept apart because
Taichi handles vectors of at most 32 entries well.
"""

DAMP_MATRIX_SIZE = 21
DAMP_FORCE = 21
DAMP_SCALAR = 27
DAMP_WIDTH = 28
OTHER_FORCE = 0
OTHER_DV = 6
OTHER_WIDTH = 12


def damp_index(i: int, j: int) -> int:
    """Position of C[i, j] (i ≤ j) in the block (row-major upper triangle of a 6×6 matrix)."""
    if i > j:
        i, j = j, i
    return i * 6 - i * (i - 1) // 2 + (j - i)
