"""Every kernel and stage of the step says what it reads and writes (issue 20, item 2; docs/architecture.md).

A ``@ti.func`` or ``@ti.kernel`` of dem/physics/ that takes an argument pack or a scratch array (md, st, ct, dg,
karr, scan, fsum) groups its parameters under ``# in:`` (read only) and ``# out:`` (written) comments, as MuJoCo
Warp does; one that writes through a pack must have an ``# out:`` group naming it, and one without any is pure or
read only. Signatures stay short (Taichi copies a statement's source lines into the IR: one argument a line made
the step kernel's cold compile ~3 s slower). Read from the source: no kernel is compiled.
"""

import ast
import re
from pathlib import Path

PHYSICS = Path(__file__).resolve().parents[2] / "dem" / "physics"
ARRAYS = ("md", "st", "ct", "dg", "karr", "scan", "fsum")
# a store or an add through a pack: `st.force[c] = ...`, `dg.ledger[w, j] += ...`, `karr[row, col] = ...`
WRITE = re.compile(r"^\s*(st|ct|dg)\.\w+\[[^\n]*\]\s*[-+]?=[^=]|^\s*(karr|scan|fsum)\[[^\n]*\]\s*[-+]?=[^=]", re.M)
# a write through a helper: LY.accumulate(st.force, ...), LY.accumulate2(dg.ledger, ...)
ACCUMULATE = re.compile(r"accumulate2?\((st|dg)\.|accumulate2?\(karr")


def _stages():
    for path in sorted(PHYSICS.glob("*.py")):
        src = path.read_text()
        lines = src.splitlines()
        for node in ast.parse(src).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            if not any(ast.unparse(d).startswith(("ti.func", "ti.kernel")) for d in node.decorator_list):
                continue
            signature = "\n".join(lines[node.lineno - 1: node.body[0].lineno - 1])
            body = "\n".join(lines[node.body[0].lineno - 1: node.end_lineno])
            yield f"{path.name}:{node.name}", [a.arg for a in node.args.args], signature, body


def test_stages_that_take_arrays_group_their_parameters_as_in_and_out():
    missing = [name for name, params, sig, _ in _stages() if set(params) & set(ARRAYS) and "# in:" not in sig]
    assert not missing, f"stages without an `# in:` group: {missing}"


def test_stages_that_write_through_a_pack_have_an_out_group():
    missing = [name for name, _, sig, body in _stages()
               if (WRITE.search(body) or ACCUMULATE.search(body)) and "# out" not in sig]
    assert not missing, f"stages that write a pack without an `# out:` group: {missing}"


def test_out_groups_come_after_in_groups():
    bad = [name for name, _, sig, _ in _stages() if "# out" in sig and "# in:" in sig
           and sig.index("# out") < sig.index("# in:")]
    # the positional order the frame export (dem/output/snapshot.py) calls with, kept: out between two in groups
    kept = {"interface_stiffness.py:wall_stiffness", "pair_geometry_pass.py:pair_geometry_pass",
            "interface_stiffness.py:clear_sums", "interface_stiffness.py:add_to_sum",
            "interface_stiffness.py:add_in_run"}
    assert set(bad) <= kept, f"`# out:` before `# in:`: {sorted(set(bad) - kept)}"


def test_contact_loops_leave_the_ledger_to_the_step():
    """The contact stages return their energy sums; the step adds them to the ledger (history_rows.add_contact_energy)
    and the block step charges their loop budget (step_blocks.split_contact_stages)."""
    loops = {name: body for name, _, _, body in _stages()
             if name in ("pair_contact.py:pair_contacts", "wall_contact.py:wall_contacts")}
    assert len(loops) == 2
    for name, body in loops.items():
        code = body.split('"""')[2]  # without the docstring
        assert "add_contact_energy(" not in code and "dg.ledger" not in code, name
        assert "cost" not in code and "LOOP_BUDGET" not in code, name


def test_stage_signatures_stay_short():
    """At most 4 lines from ``def`` to the body (docs/architecture.md: Taichi 1.7 copies them into the IR)."""
    long = [name for name, _, sig, _ in _stages() if sig.count("\n") + 1 > 4]
    assert not long, f"signatures over 4 lines: {long}"
