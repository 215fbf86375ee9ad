"""The block's copy of its world's counters (issue 30, item 4): what lane 0 decides, the other lanes read from
shared memory, never from the global counts array.

On the SPIR-V backends Taichi 1.7.4's block barrier orders workgroup (shared) memory only (step_blocks.py, "What
orders what"): a value lane 0 stores to a global array before a barrier is not promised visible to the block's other
lanes after it. The counters that steer the block (whether to rebuild the wall candidates, how many there are, which
half of the pair region holds the list and how many pairs, whether to search, whether the list overflowed, whether a
wall moves) are therefore kept, for the whole launch, in slots of the block's shared scan array after its bd + 1
scratch integers: lane 0 loads them from counts[w] when the launch begins (the host wrote them before it), and each
time it changes one it stores the global copy (for the host, and for the serial path's code it shares) and the slot
(:func:`publish`); every lane reads the slot (:func:`count`) after a barrier. With one thread a block (bd = 1, the
CPU) there is no shared array: the functions are the global reads and stores as before, compiled to the same code.

Test knobs (read when the kernel compiles: a test sets them in a process of its own, tests/physics/test_block_counts.py;
they change the kernel's IR, and so its key in Taichi's offline cache): POISON stores a wrong value (:func:`poisoned`)
in the global copy right after lane 0's store, before the barrier, and lane 0 puts the right values back after the
step: a lane that read the global copy would take the wrong value, so with the slots the histories keep their bits.
READS = "global" makes every lane read the global copies instead (the code before the slots): then the poison changes
the histories, which shows that the test would catch a read of the global copy.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti

# the slots, after the bd + 1 scratch integers of the scan array (pair_search_device.exclusive_scan)
REBUILD, WALLS_MOVING, N_CAND, PAIR_HALF, N_PAIRS, PAIR_STOP, OVERFLOW = range(7)
SLOTS = 7
COLUMNS = (LY.CT_REBUILD_FLAG, LY.CT_WALLS_MOVING, LY.CT_N_CAND, LY.CT_PAIR_HALF, LY.CT_N_PAIRS, LY.CT_PAIR_STOP,
           LY.CT_OVERFLOW)
FLAGS = (REBUILD, WALLS_MOVING, PAIR_HALF, PAIR_STOP, OVERFLOW)  # 0 or 1

POISON = False
READS = "shared"


def scan_size(bd: int) -> int:
    """Integers of the block's shared scan array: bd + 1 scratch, then the slots."""
    return bd + 1 + SLOTS


@ti.func
def poisoned(slot: ti.template(), value):
    """The wrong value POISON stores: a flag flipped, a count zeroed."""
    out = 0
    if ti.static(slot in FLAGS):
        out = 1 - value
    return out


@ti.func
def load(ct: ti.template(), w, lane, bd: ti.template(),  # in:
         scan: ti.template()):  # out:
    """When the launch begins: lane 0 copies world w's counters into the slots (read after the next barrier).

    In/out — in ct: counts[w]; out scan: the slots.
    """
    if ti.static(bd > 1):
        if lane == 0:
            for k in ti.static(range(SLOTS)):
                scan[bd + 1 + k] = ct.counts[w, COLUMNS[k]]


@ti.func
def count(ct: ti.template(), w, slot: ti.template(), bd: ti.template(),  # in:
          scan: ti.template()):  # in:
    """Counter `slot` of world w as the block has it: the slot (bd > 1), else the global copy.

    In/out — in ct: counts[w] (bd = 1, or READS = "global"); in scan: the slots.
    """
    out = 0
    if ti.static(bd > 1 and READS == "shared"):
        out = scan[bd + 1 + slot]
    else:
        out = ct.counts[w, COLUMNS[slot]]
    return out


@ti.func
def publish(ct: ti.template(), w, slot: ti.template(), value, bd: ti.template(),  # in:
            scan: ti.template()):  # out:
    """Lane 0, after storing counts[w, COLUMNS[slot]] = value: the block's slot too (with POISON, the global copy
    then poisoned). The other lanes read it after the next barrier.

    In/out — out scan: the slot; out ct: counts[w] (POISON only).
    """
    if ti.static(bd > 1):
        scan[bd + 1 + slot] = value
        if ti.static(POISON):
            ct.counts[w, COLUMNS[slot]] = poisoned(slot, value)


@ti.func
def restore(w, lane, bd: ti.template(), scan: ti.template(),  # in:
            ct: ti.template()):  # out:
    """After the step (POISON only): lane 0 puts the slots' values back into the global copies.

    In/out — in scan: the slots; out ct: counts[w].
    """
    if ti.static(bd > 1 and POISON):
        if lane == 0:
            for k in ti.static(range(SLOTS)):
                ct.counts[w, COLUMNS[k]] = scan[bd + 1 + k]
