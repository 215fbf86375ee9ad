"""Every joint of an assembly gets its interface plot (dem.output.plots): up to INTERFACE_LINES interfaces a
line each in plot_interfaces.png; beyond (an arch, a tall column) a map per quantity with a row per
interface and plot_interface_envelopes.png with each interface's least and largest value. On made-up
histories (no run): 30 joints and INTERFACE_LINES joints, with the columns a dem.run.probes.Interface writes."""

from __future__ import annotations

import numpy as np

from dem.output import columns as K
from dem.output import plots
from dem.output.plots import INTERFACE_LINES, figure_families, interface_labels, interface_table, plot_history

QUANTITIES = ("H", "V", "V_ratio", "ecc", "friction", "contacts")


def _history(joints: int, records: int = 200) -> dict[str, np.ndarray]:
    t = np.arange(records) * 0.01
    h = {"t": t}
    for k in range(joints):
        phase = 0.3 * k
        h |= {f"joint{k}_H": 100.0 * np.sin(3 * t + phase), f"joint{k}_V": 1000.0 * (1 + 0.1 * np.cos(t + phase)),
              f"joint{k}_V_ratio": 1 + 0.1 * np.cos(t + phase), f"joint{k}_ecc": 0.2 * np.sin(2 * t + phase),
              f"joint{k}_friction": 0.1 * np.abs(np.sin(3 * t + phase)), f"joint{k}_contacts": np.full(t.size, 40.0)}
    h["joint3_ecc"][5] = np.nan  # a joint that carried nothing at one record
    return h


def test_many_joints_each_get_a_row_of_the_maps_and_the_envelopes(tmp_path):
    h = _history(30, records=100)
    cols = {n: K.guess(n) for n in h}
    families = figure_families(list(h), cols)["interfaces"]
    labels = interface_labels(families, cols)
    assert labels == [f"joint{k}" for k in range(30)]  # every joint, in the assembly's order
    t, z = interface_table(h, families[K.IF_ECC], cols, labels, t_max=1.0)
    assert z.shape == (30, np.count_nonzero(h["t"] <= 1.0)) and np.all(t <= 1.0)
    for k in (0, 17, 29):
        assert np.array_equal(z[k], h[f"joint{k}_ecc"][: t.size])
    assert np.isnan(z[3, 5]) and np.count_nonzero(np.isnan(z)) == 1
    paths = plot_history(h, tmp_path, title="arch", columns=cols, full=True)
    names = {p.name for p in paths}
    assert {"plot_interfaces.png", "plot_interface_envelopes.png"} <= names
    assert all(p.stat().st_size > 10_000 for p in paths)


def test_up_to_interface_lines_joints_are_a_line_each(tmp_path, monkeypatch):
    """Drawn as before: one figure, an axis per quantity, a line per joint (the drawing itself is replaced)."""
    drawn = []

    def families_figure(history, families, columns, path, **kw):
        drawn.append((path.name, {f: [columns[n].label for n in ns] for f, ns in families.items()}))
        return path

    monkeypatch.setattr(plots, "plot_families", families_figure)
    h = _history(INTERFACE_LINES)
    plot_history(h, tmp_path, columns={n: K.guess(n) for n in h}, full=True)
    assert [name for name, _f in drawn] == ["plot_interfaces.png"]
    assert all(labels == [f"joint{k}" for k in range(INTERFACE_LINES)] for labels in drawn[0][1].values())


def test_friction_spikes_where_v_nears_zero_do_not_hide_the_mu_line():
    """(Issue 32: |H|/V spikes up to 44 squeezed the μ line to the axis' foot.) A joint's |H|/V of about 0.3 with
    one spike of 44 (V near 0): the axis ends at 3 μ, the μ line is in its middle third, and it says what it
    clipped; without a spike the axis is matplotlib's own."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    h = _history(4)
    cols = {n: K.guess(n) for n in h}
    for spike, clipped in ((44.0, True), (None, False)):
        h["joint0_friction"] = 0.3 + 0.05 * np.sin(h["t"])
        if spike is not None:
            h["joint0_friction"][50] = spike
        fig, ax = plt.subplots()
        plots.draw_axis(ax, h["t"], h, ["joint0_friction"], cols, {}, family=K.IF_FRICTION, mu=0.59)
        lo, hi = ax.get_ylim()
        said = " ".join(txt.get_text() for txt in ax.texts)
        plt.close(fig)
        if clipped:
            assert hi == plots.FRICTION_AXIS * 0.59 and lo == 0.0 and "spikes to 44" in said
        else:
            assert hi < 1.0 and "clipped" not in said
