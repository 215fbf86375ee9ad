"""A launch copies to the host the history rows it wrote, not the whole history buffer (dem/physics/record_copy.py;
issue 30, item 2): the rows are those of the buffer, bit for bit, and the bytes moved are the rows written."""

import numpy as np

from tests._stacked_blocks import build


def _batch(dem):
    """Two worlds of different history widths (a stack of two blocks on a floor; one block alone), so that each
    world's rows and columns are cut from the buffer at its own place."""
    from dem.scenes.scene import build_scene

    two = build({"theta0_deg": 8.0, "size": 0.1, "r": 0.01, "mu": 0.5, "dt": 1e-5, "t_end": 1.0,
                 "history_dt": 1e-3}).model
    one = build_scene("drop_box", {}).model
    return dem.Simulation([two, one], dt=1e-5, history_every=7, capacity=64)


def test_the_rows_copied_are_the_buffers_rows(ti_cpu, monkeypatch):
    """Every launch's rows, gathered, equal the buffer copied whole and cut (the code before), to the bit; and
    the launches moved the rows written only: some launches end short of the buffer (a host pair search stops the
    stack's world; the last launch), so the whole buffer would have moved more."""
    import dem.physics.record_copy as RC

    sim = _batch(ti_cpu)
    moved, whole = [], []
    gather = RC._gather_rows

    def checked(rec, src, out):
        gather(rec, src, out)
        full = rec.to_numpy()
        assert np.array_equal(out, full[src]), "gathered rows differ from the buffer's"
        moved.append(out.shape[0])
        whole.append(full.shape[0])

    monkeypatch.setattr(RC, "_gather_rows", checked)
    rows = sim.advance(3000)
    assert sum(moved) == sum(len(r) for r in rows)  # each row written crossed once
    assert len(moved) >= 2 and sum(moved) < sum(whole)  # the whole buffer each launch would have been more
    assert sim.pair_rebuilds > 0
    for r, lay in zip(rows, sim.layouts):
        assert r.shape[1] == lay.width and np.all(np.isfinite(r[:, 0])) and np.all(np.diff(r[:, 0]) > 0)
