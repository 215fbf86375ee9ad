"""docs/tutorial.md §4's Python block builds what it says (so that the tutorial cannot drift from the builders):
the column's drums and capital named and stacked with a joint under each, the wall's blocks with the mass of
the solid wall."""

import math
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_tutorial_structures_block_builds_the_column_and_the_wall(capsys):
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    section = text.split("## 4. Structures of many blocks", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    scope: dict = {}
    exec(compile(code, "docs/tutorial.md §4", "exec"), scope)
    model, col, wall = scope["model"], scope["col"], scope["wall"]
    names = [model.clumps[c].name for c in col.bodies]
    assert names == ["col_drum1", "col_drum2", "col_drum3", "col_drum4", "col_capital"]
    assert len(col.joints) == 5  # on the table and under each block above the foot
    # running bond, 3 courses of 1.2 m: 3 + 4 (two half blocks at the ends) + 3 blocks
    assert len(wall.bodies) == 10
    # the blocks' masses are their solids' (ρ L H T for the whole wall), to round-off
    mass = sum(model.mass[c] for c in wall.bodies)
    assert math.isclose(mass, 2000.0 * 1.2 * 0.6 * 0.2, rel_tol=1e-9), mass
    assert "10 wall blocks, 22 joints" in capsys.readouterr().out
