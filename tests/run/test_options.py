"""One run-options object (dem.run.options.RunOptions): checked once with the allowed range in each message,
taken by run_scene and run_worlds as an object or as keywords, with the same run either way."""

import math

import numpy as np
import pytest

from dem.run.options import RunOptions
from tests.builders import block_on_floor


@pytest.mark.parametrize("settings,match", [
    ({"t_end": 0.0}, r"t_end must be > 0 \[s\], got 0.0"),
    ({"t_end": math.inf}, r"t_end must be > 0 \[s\], got inf"),
    ({"t_end": "long"}, r"t_end must be a number of seconds > 0, got 'long'"),
    ({"history_dt": -1e-3}, r"history_dt must be > 0 \[s\]"),
    ({"frame_dt": 0}, r"frame_dt must be > 0 \[s\]"),
    ({"dt": "fast"}, r"dt must be a number of seconds > 0 or 'auto', got 'fast'"),
    ({"dt": -1e-5}, r"dt must be > 0 \[s\]"),
    ({"checkpoint_every": math.nan}, r"--checkpoint-every must be a number of simulated seconds > 0"),
    ({"stop_on": ["overturn", "explode"]}, r"--stop-on takes event kinds from overturn, left_domain, sliding, "
                                           r"got explode"),
])
def test_bad_values_name_the_option_and_its_range(settings, match):
    with pytest.raises(ValueError, match=match):
        RunOptions(**settings)


def test_keywords_over_an_object_and_unknown_names():
    base = RunOptions(t_end=2.0, plots=False, stop_on="overturn")
    assert base.stop_on == ("overturn",)
    assert RunOptions.of(base) is base
    merged = RunOptions.of(base, t_end=3, out_dir="runs/x")
    assert (merged.t_end, merged.plots, str(merged.out_dir)) == (3.0, False, "runs/x")
    assert base.t_end == 2.0  # frozen: the original is unchanged
    with pytest.raises(TypeError, match="unknown run option.*t_final"):
        RunOptions.of(t_final=1.0)
    with pytest.raises(ValueError, match="t_end must be > 0"):
        base.replace(t_end=-1.0)  # a copy is checked as the constructor checks


def test_options_object_and_keywords_run_the_same(ti_cpu):
    """The same settings given as a RunOptions or as keywords give the same history, bit for bit (the options
    are only a way to pass them: any difference would be a setting lost on one of the two paths)."""
    from dem import Scene, run_scene

    scene = Scene("block", block_on_floor(ti_cpu, theta=0.05), [], 2e-5, 0.02, 1e-3, {})
    opts = RunOptions(t_end=0.01, history_dt=5e-4, progress=False, plots=False, sleep=False)
    by_object = run_scene(scene, opts).history
    by_keywords = run_scene(scene, t_end=0.01, history_dt=5e-4, progress=False, plots=False, sleep=False).history
    assert len(by_object["t"]) == 20  # rows at t = 0, 5e-4, ..., 0.0095 s: the run went to t_end, not 1 s
    assert by_object.keys() == by_keywords.keys()
    for k in by_object:
        np.testing.assert_array_equal(by_object[k], by_keywords[k], err_msg=k)
