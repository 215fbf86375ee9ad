"""What a new user met on the command line (issue 32, item 11): an error in their scene file is one line naming the
file and line; `dem scenes` gives each scene's first sentence whole; text and true/false parameters say what they
take, not a numeric range."""

from __future__ import annotations

import pytest

from dem.cli.main import main

SCENE = '''"""A user's scene."""
from dem.scenes.scene import Param

PARAMS = {{"size": Param(1.0, "size", "m", low=0, low_open=True)}}


def build(p):
{body}
'''


@pytest.mark.parametrize("body,line,said", [
    ("    return p['sise']", 8, "the scene's build raised KeyError: 'sise'"),  # a typo in build
    ("    return (", 8, "the scene file has a syntax error"),
])
def test_an_error_in_a_users_scene_file_is_one_line_naming_it(tmp_path, capsys, body, line, said):
    path = tmp_path / "my_scene.py"
    path.write_text(SCENE.format(body=body))
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--no-progress", "--no-plots"]) == 2
    err = [ln for ln in capsys.readouterr().err.strip().splitlines() if ln.startswith("dem: ")]
    assert len(err) == 1 and err[0].startswith(f"dem: error: {path}:{line}: ") and said in err[0], err
    assert "Traceback" not in "\n".join(err)


def test_scenes_lists_whole_first_sentences(capsys):
    assert main(["scenes"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) >= 8
    for ln in lines:
        name, text = ln.split(None, 1)
        assert text.rstrip().endswith((".", ")")), ln  # not cut at the end of a docstring's first line
    drum = next(ln for ln in lines if ln.startswith("drum_column"))
    assert "Mouzakis et al. (2002)" in drum  # "et al." does not end the sentence


def test_text_and_boolean_parameters_say_what_they_take(capsys):
    assert main(["scenes", "--params", "single_pier"]) == 0
    out = capsys.readouterr().out
    assert "(-inf, inf)" not in out
    record = next(ln for ln in out.splitlines() if ln.strip().startswith("record "))
    assert record.rstrip().endswith("(text)")
