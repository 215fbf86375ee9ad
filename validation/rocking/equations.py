"""Equation of motion of the rocking block between impacts (Qi & Zhu 2025, Eq. 22 and 25; Housner 1963; Zhang & Makris
2001).

θ̈ = −p² [sin(α s − θ) + (ü_g/g) cos(α s − θ)], s = sgn θ the side (pivot corner) the block is on;
linearised (slender blocks, Qi & Zhu 2025, §3): θ̈ = −p² [(α s − θ) + ü_g/g].
A vertical base acceleration ü_v (up) changes gravity as the block feels it, g + ü_v (Housner 1963; Zhang &
Makris 2001): θ̈ = −p² [(1 + ü_v/g) sin(α s − θ) + (ü_g/g) cos(α s − θ)].
Works elementwise on floats or NumPy arrays (one entry per record in the batched solver).
"""

from __future__ import annotations

import numpy as np

Scalar = float | np.ndarray


def angular_acceleration(
    theta: Scalar, side: Scalar, accel: Scalar, *, p: float, alpha: float, g: float, linear: bool,
    vertical: Scalar = 0.0,
) -> Scalar:
    """Rocking angular acceleration θ̈ [rad/s²].

    theta: rocking angle [rad]; side: +1 or −1, the pivot corner (sgn θ, fixed between impacts);
    accel: horizontal base acceleration ü_g [m/s²]; p [rad/s], alpha [rad], g [m/s²]; vertical: the base's
    vertical acceleration ü_v [m/s², + up].
    """
    phi = side * alpha - theta
    lift = 1.0 + vertical / g  # gravity as the block feels it, ÷ g
    if linear:
        return -p * p * (lift * phi + accel / g)  # Qi & Zhu 2025, §3, linearised for α < 15°
    return -p * p * (lift * np.sin(phi) + accel / g * np.cos(phi))  # Qi & Zhu 2025, Eq. 22; Housner 1963
