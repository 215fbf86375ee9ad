"""What a batch run does on the host between its launches, kept from slowing it (issue 23, item 5): the record
buffer copied after each launch holds about one chunk's rows (not 54 MB for 16 coarse Peña worlds), and the
host's vector arithmetic on the history rows gives the numbers NumPy's generic routines gave, bit for bit."""

import numpy as np
import pytest

from dem.run.probes import cross3


@pytest.mark.parametrize("shapes", [((50, 3), (50, 3)), ((50, 3), (3,)), ((50, 1, 3), (1, 4, 3)),
                                    ((50, 1, 3), (50, 4, 3)), ((3,), (3,))])
def test_cross3_is_numpys_cross_bit_for_bit(shapes):
    rng = np.random.default_rng(7)
    a, b = (rng.normal(size=s) * 10.0 ** rng.integers(-6, 6, size=s) for s in shapes)
    assert np.array_equal(cross3(a, b), np.cross(a, b))
    assert cross3(a, b).shape == np.cross(a, b).shape


def test_a_batch_fetches_a_small_record_buffer(ti_cpu):
    """16 coarse Peña worlds: the device history buffer (copied whole to the host after every launch) is at most
    HISTORY_FETCH_BYTES on the serial path; a Simulation made directly keeps its larger default."""
    from dem.physics.simulation import Simulation
    from dem.run.driver import HISTORY_FETCH_BYTES, Run
    from dem.run.options import RunOptions
    from dem.run.worlds import build_worlds

    worlds = build_worlds("pena_block", [{"theta0_deg": 1.0 + 0.25 * k} for k in range(16)],
                          common={"r_base": 0.01, "r_core": 0.05})
    run = Run(worlds.scenes, RunOptions(t_end=0.01, progress=False, plots=False), batch=True)
    run._setup()
    d = run.sim.diag
    assert d.rows * d.width * 16 * 8 <= HISTORY_FETCH_BYTES and d.rows >= 16
    default = Simulation(worlds.models, dt=1e-5, history_every=10).diag
    assert default.rows > 4 * d.rows  # what each launch copied before
