"""Unit mistakes warn before the work starts (issue 32, item 8): a block dimension typed in mm where the scene
wants m (`dem run pena_block --set height=754` built 3.68 M spheres and ran a minute without a word), and a
record in cm/s² or m/s² read as g (a 298 g record ended in "runaway overlap", its peak only in summary.json)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest


def test_a_block_taller_than_100_m_warns_of_millimetres_before_it_is_packed():
    from dem.model.sizing import SIZE_WARNING_M, check_box

    said = r"its height 754 m is over 100 m; is it in mm typed as m\? \(754 mm = 0.754 m\)"
    with pytest.warns(UserWarning, match=said):
        check_box(0.25, 754.0, 0.754, r_core=0.025, r_base=0.005, base_zone=0.15)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the Peña block as the paper gives it: no warning
        check_box(0.25, 1.0, 0.754, r_core=0.025, r_base=0.005, base_zone=0.15)
        check_box(5.0, SIZE_WARNING_M, 1.6, r_core=2.0)  # a tall structure at the limit


def _record(tmp_path, peak_g):
    t = np.arange(0.0, 2.0, 0.01)
    path = tmp_path / f"r{peak_g:g}.csv"
    np.savetxt(path, np.column_stack([t, peak_g * np.sin(2 * math.pi * t)]), delimiter=",")
    return path


@pytest.mark.parametrize("peak_g,likely", [(298.0, "cm/s² \\(gal\\) read as g"), (9.0, "m/s² read as g")])
def test_a_record_above_5_g_warns_of_its_units(tmp_path, peak_g, likely):
    from dem.scenes.scene import load_scene_module, resolve_params
    from dem.scenes.tools import base_signal

    module = load_scene_module("single_pier")
    p = resolve_params(module.PARAMS, {"record": str(_record(tmp_path, peak_g))}, scene="single_pier")
    with pytest.warns(UserWarning, match=f"peak acceleration {peak_g:.3g} g, above 5 g.*{likely}"):
        base_signal(p, module.PARAMS)
    p = resolve_params(module.PARAMS, {"record": str(_record(tmp_path, 0.4))}, scene="single_pier")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a strong record, but a real one
        base_signal(p, module.PARAMS)
