"""3D drop shock of a rigid box on four unilateral corner spring–dampers (the drop-shock method notes,
docs/references.md).

Plain NumPy reference: 13-component state with a unit quaternion, RKF45 with Cash–Karp coefficients
and step control, outputs t, CG acceleration in G and the four corner loads (the notes, §10), exported as
CSV/JSON. :func:`drop_shock_histories` returns the arrays a DEM drop-box run is compared with.
"""

from .box import BOTTOM_CORNER_NAMES, DropBox, ModalEstimates
from .dynamics import box_loads, derivatives, mechanical_energy
from .export import write_csv, write_json
from .rkf45 import CashKarpStats, integrate_cash_karp
from .solver import DropShockResult, drop_shock_histories, simulate_drop

__all__ = [
    "BOTTOM_CORNER_NAMES",
    "CashKarpStats",
    "DropBox",
    "DropShockResult",
    "ModalEstimates",
    "box_loads",
    "derivatives",
    "drop_shock_histories",
    "integrate_cash_karp",
    "mechanical_energy",
    "simulate_drop",
    "write_csv",
    "write_json",
]
