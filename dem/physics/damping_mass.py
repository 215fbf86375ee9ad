"""The mass in each dashpot's 2β√(m_c k): host-side coefficients of the two options (docs/damping.md).

``"body"`` (004 §2.1, the default): every contact of a body with a wall uses the body's mass M, every
contact between two bodies their reduced mass M = m_a m_b/(m_a + m_b). A body resting on N contacts of
stiffness k then has N dashpots 2β√(M k) in parallel against N springs: damping ratio β√N.

``"shared"``: the contacts of one *interface* (the active contacts of a body with one wall or one other
body) share its mass M in proportion to their normal stiffness (docs/damping.md, Eq. D1–D3):
    m_i = M k_n,i / K_n,   K_n = Σ_j k_n,j   (j over the interface's active contacts),
    c_n,i = 2β_n √(m_i k_n,i) = 2β_n k_n,i √(M/K_n),   c_s,i = 2β_s √(m_i k_s,i),
so Σ c_n,i = 2β_n √(M K_n): the interface's damping ratio is β_n whatever N. With one contact m_1 = M
("body"). The contact kernels implement both (dem/physics/interface_stiffness.py sums K_n per interface each step,
dem.physics.contact_law.dashpot_mass shares the mass); these functions are the reference the tests and the
derivation use.
"""

from __future__ import annotations

import numpy as np

from ..model.materials import DAMPING_MASSES


def contact_masses(k_n, mass: float, *, damping_mass: str = "body", k_sum: float | None = None) -> np.ndarray:
    """Dashpot mass m_c,i [kg] of each active contact of one interface.

    Args:
        k_n: tangent normal stiffness of each contact [N/m], shape (N,), all > 0.
        mass: the interface's mass M [kg] (a body's mass against a wall, the reduced mass between bodies).
        damping_mass: "body" or "shared" (module docstring).
        k_sum: K_n [N/m] to share by; default Σ k_n (this step's). A kernel that only knows the last step's
            sum passes it here: each share is then M k_n,i / max(K_n, k_n,i) (docs/damping.md, Eq. D5), so a
            contact never gets more than the whole mass, and the first contact of an impact (K_n = 0) gets M.
    """
    k = np.asarray(k_n, float)
    if damping_mass not in DAMPING_MASSES:
        raise ValueError(f"damping_mass must be one of {', '.join(DAMPING_MASSES)}, got {damping_mass!r}")
    if not (np.isfinite(mass) and mass > 0):
        raise ValueError(f"mass must be > 0 [kg], got {mass}")
    if np.any(~(k > 0)):
        raise ValueError("k_n must be > 0 [N/m] for every active contact")
    if damping_mass == "body":
        return np.full(k.shape, float(mass))
    total = float(k.sum()) if k_sum is None else float(k_sum)
    return mass * k / np.maximum(total, k)


def dashpot_coefficients(k, m_c, beta: float) -> np.ndarray:
    """c_i = 2β √(m_c,i k_i) [N·s/m] (004 §2.1) for stiffness k [N/m] (k_n or k_s) and masses m_c [kg]."""
    return 2.0 * beta * np.sqrt(np.asarray(m_c, float) * np.asarray(k, float))


def interface_damping_ratio(k, c, mass: float) -> float:
    """ζ = Σc / (2√(M Σk)) [-]: damping ratio of a mass M [kg] moving on the interface's springs k [N/m] and
    dashpots c [N·s/m] in parallel (translation along their common direction)."""
    return float(np.sum(c) / (2.0 * np.sqrt(mass * np.sum(k))))
