"""Stages of the block step taken out of a copy of the engine, for benchmarks/ptx_resources.py's register map (issue
30, item 1): which stage needs the step kernel's registers. A copy is for the compiler's report only: with a stage
taken out the step computes nothing worth running.

Each stage is one or more calls in dem/physics/step_blocks.py, named by how each call begins, and what replaces the
call (a loop bound, an empty sum, ``pass``); a call no longer found as often as listed stops the tool with the
stage's name, so that this table follows the code.
"""

import shutil
from pathlib import Path

STEP_BLOCKS = Path("dem") / "physics" / "step_blocks.py"

# stage: [(the call's beginning, its replacement, how many such calls)]
STAGES = {
    "rebuild": [("_rebuild_wall_candidates(md, st, wd, skin", "1", 1)],
    "geometry": [("pair_geometry_pass(k0", "k1 - k0", 1)],
    "pair_contacts": [("pair_contacts(md, wd", "CS.ContactSums()", 1)],
    "wall_contacts": [("wall_contacts(md, wd", "CS.ContactSums()", 1)],
    "reductions": [("SS.reduce_contacts(md, wd", "1", 1)],
    "interface_sums": [("SS.reduce_kface(md, wd", "1", 2), ("wall_stiffness(j0", "1", 1)],
    "motion": [("split_motion_stage(md, ct", "1", 1)],
    "close": [("SS.sum_moves(md, wd", "0", 1), ("SS.add_contact_sums(w", "pass", 1),
              ("SS.add_summed_moves(w", "pass", 1), ("SS.add_moves(md, wd", "pass", 1),
              ("close_step(ct, wd", "pass", 1), ("_end_step(st, wd", "pass", 1)],
    "search": [("block_pair_search(md, wd", "1", 1)],
}


def _replace_calls(text: str, start: str, by: str) -> tuple[str, int]:
    """`text` with each call that begins with `start` (up to its closing parenthesis) replaced by `by`."""
    out, pos, count = [], 0, 0
    while (i := text.find(start, pos)) >= 0:
        depth, j = 0, text.index("(", i)
        while True:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                break
            j += 1
        out += [text[pos:i], by]
        pos, count = j + 1, count + 1
    return "".join(out) + text[pos:], count


def strip(source: Path, dest: Path, without: list[str]) -> Path:
    """A copy of the engine at `source` (its dem package) in `dest`, with the stages `without` taken out of the
    block step; returns `dest`. SystemExit naming the stage whose calls are not in step_blocks.py as listed here."""
    unknown = sorted(set(without) - set(STAGES))
    if unknown:
        raise SystemExit(f"ptx_resources: error: unknown stage(s) {unknown}; the stages: {', '.join(STAGES)}")
    shutil.copytree(source / "dem", dest / "dem", ignore=shutil.ignore_patterns("__pycache__"))
    path = dest / STEP_BLOCKS
    text = path.read_text()
    for name in without:
        for start, by, expected in STAGES[name]:
            text, found = _replace_calls(text, start, by)
            if found != expected:
                raise SystemExit(f"ptx_resources: error: stage {name!r}: {found} calls beginning {start!r} in "
                                 f"{STEP_BLOCKS}, {expected} expected (update benchmarks/ptx_stages.py)")
    path.write_text(text.replace("from . import share_sums as SS\n",
                                 "from . import contact_sums as CS\nfrom . import share_sums as SS\n", 1))
    return dest
