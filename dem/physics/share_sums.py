"""Fixed-order sums of the block path (issue 30, item 3): no float atomics inside a step, so that two runs of the same
batch give the same bits, and a world in a batch the bits it has alone.

The contact and motion stages of the block path split each list into S contiguous *shares* (S = bd × SHARES_PER_LANE;
thread `lane` takes shares lane · SHARES_PER_LANE + v, v < SHARES_PER_LANE, each through :func:`share_of`). A share
adds what it finds — its contacts' forces, moments, damping blocks and stiffness sums, its probe-slot sums, its ledger
sums, its interface stiffness sums — to partials of its own, in list order, with plain loads and stores (no other
thread writes them). After a barrier a reduction adds the S partials of each target in share order 0, 1, …, S − 1
and stores the sum once (one thread a target component, targets spread over the block's threads). The result depends
on the lists and on S, never on the order in which the threads ran: a reduction of the same partials is the same
sum. (A different S splits the lists elsewhere and gives other round-off: the bits are those of one block size.)

Where the partials live: in the world's row of the ledger array, after the ledger's columns and the interface
stiffness sums (the step kernel takes no more arrays than it does: runtime.MAX_KERNEL_ARRAYS), from column
``base = LEDGER_SIZE + (n_c (n_w + n_c) under damping_mass "shared", else 0)``:

    base + c_local                           clump c's sleep at the start of the contact stages (1: asleep)
    base + n_c + s · P + ...                 share s's block of P = share_width(n_c, n_s, kf) columns:
        [0, SUMS)                            contact sums (SUM_* below) and the motion stage's ledger terms (MOVE_*)
        SUMS + c_local · CLUMP_ENTRY         clump c: a flag (1: share s wrote it this step), then CLUMP_PARTS values
        ... + n_c · CLUMP_ENTRY + k · SLOT_ENTRY   probe slot k of the world: a flag, then SLOT_WIDTH values
        ... + n_s · SLOT_ENTRY + j · 2       interface stiffness column j (under "shared"): a flag, then K_I's share

A partial is zero and its flag 0 between steps (a checkpoint holds them as zeros): the reduction zeroes each value
it reads (each value is read by one thread), and the law of motion, after the reduction's barrier, clears the flags
(the thread that moves clump c clears its flags; the threads clear the slot and interface flags strided). So a share
adds to its partials without a first store, and the reduction reads only the partials whose flag is set: the traffic
is that of the contacts, not of S × targets. (The motion stage's sums MOVE_* are stored, not added, by every share
every step: lane 0 zeroes them after reading only with one thread a block, so that with several no store of lane 0
must reach another thread before its own; block_counts.py. With several threads the step's contact sums go to lane 0
through the block's shared memory, :func:`add_contact_sums`, and the probe slots' sums are stored, not added.) Memory:
S · P + n_c columns a world (simulation.Diagnostics), 0 on the serial path and whenever S = 1.

Test knobs (read when a Simulation is made; a kernel compiled with them is another variant, Simulation.kernel_variant):
SHARES_PER_LANE > 1 gives every thread several shares — the CPU's block path, one thread a world, then takes the
same reductions as a GPU's block of threads; SHARE_ORDER permutes which thread (and in which turn) takes which share,
so a test can change the order in which the shares add what they find, which Mesa's lavapipe and the CPU otherwise
fix: "identity", "reverse" (share S − 1 − i in place of i), "rotate" (share i + 1 mod S).
"""

from ..device import layout as LY
from ..device import runtime
from ..device.damping_layout import DAMP_WIDTH
from ..device.kernel_lang import ti
from . import ledger as L

SHARES_PER_LANE = 1
SHARE_ORDER = "identity"
ORDERS = ("identity", "reverse", "rotate")

# a share's sums: its contact stages' (history_rows.add_contact_energy) and its clumps' ledger terms (clump_ledger)
SUM_DAMPING, SUM_FRICTION, SUM_STIFFNESS, SUM_BOUNDARY, SUM_STRAIN, SUM_COUNT, SUM_WORST = range(7)
MOVE_BODY, MOVE_BOUNDARY, MOVE_DAMPING, MOVE_KINETIC = range(7, 11)
SUMS = 11
# the block's shared sums on their way to lane 0 (bd > 1): the step's contact sums (reduce_contacts), then the
# shares' motion sums (sum_moves)
FSUM_MOVES = SUM_WORST + 1
FSUM_SIZE = FSUM_MOVES + 4
# the ledger column each sum goes to (SUM_WORST: the largest, into L.MAX_OVERLAP)
SUM_COLUMNS = (L.STEP + L.DAMPING, L.STEP + L.FRICTION, L.STEP + L.STIFFNESS, L.STEP + L.BOUNDARY, L.STRAIN,
               L.CONTACTS)
MOVE_COLUMNS = (L.STEP + L.BODY, L.STEP + L.BOUNDARY, L.STEP + L.DAMPING, L.KINETIC)
# a clump's partial after its flag: wrench (force, moment), damping block, other-body force, the monitor's sums
P_WRENCH = 0
P_DAMP = P_WRENCH + LY.WRENCH_WIDTH
P_OTHER = P_DAMP + DAMP_WIDTH
P_MONITOR = P_OTHER + 6
CLUMP_PARTS = P_MONITOR + 3
CLUMP_ENTRY = 1 + CLUMP_PARTS
SLOT_PARTS = 8  # history_rows.SLOT_WIDTH
SLOT_ENTRY = 1 + SLOT_PARTS
REAL = None  # the real type of the current precision: the block's shared contact sums (simulation.advance_blocks)


def _define_types(real):
    global REAL
    REAL = real


runtime.define_types(_define_types)


def share_width(n_clump: int, n_slot: int, kface: int) -> int:
    """Columns of one share's block (module docstring): kface interface columns (0 unless "shared")."""
    return SUMS + n_clump * CLUMP_ENTRY + n_slot * SLOT_ENTRY + 2 * kface


def world_columns(n_clump: int, n_wall: int, n_slot: int, shared_mass: bool, shares: int) -> int:
    """Ledger columns world needs with `shares` shares: the ledger's, its interface sums, and its partials (none
    with one share)."""
    kface = n_clump * (n_wall + n_clump) if shared_mass else 0
    if shares <= 1:
        return L.LEDGER_SIZE + kface
    return L.LEDGER_SIZE + kface + n_clump + shares * share_width(n_clump, n_slot, kface)


def world_shares(parallel: bool, block_dim: int) -> int:
    """The shares a world's lists are split into: block_dim × SHARES_PER_LANE on the block path, 1 on the serial."""
    return int(block_dim) * int(SHARES_PER_LANE) if parallel else 1


def order_code(order: str) -> int:
    if order not in ORDERS:
        raise ValueError(f"SHARE_ORDER must be one of {', '.join(ORDERS)}, got {order!r}")
    return ORDERS.index(order)


# row: the world; base: its first column after the interface sums; sums, clumps, slots, kface: where the share's
# parts begin; stride: the columns of a share's block (share s + 1's parts begin stride columns after share s's)
ShareSink = ti.types.struct(row=ti.i32, share=ti.i32, base=ti.i32, sums=ti.i32, clumps=ti.i32, slots=ti.i32,
                            kface=ti.i32, stride=ti.i32, clump0=ti.i32, slot0=ti.i32)


@ti.func
def share_of(lane, v, bd: ti.template(), per: ti.template(), order: ti.template()):
    """The share thread `lane` of bd takes in its v-th turn (per turns a stage; order: ORDERS' index)."""
    n = bd * per
    i = lane * per + v
    out = i
    if ti.static(order == 1):
        out = n - 1 - i
    elif ti.static(order == 2):
        out = (i + 1) % n
    return out


@ti.func
def _kface_count(md: ti.template(), wd):  # in:
    """Interface stiffness columns of world wd (0 unless damping_mass "shared").

    In/out — in md: world_param.
    """
    out = 0
    if LY.uses_shared_mass(md, wd.index):
        out = wd.n_clump * (wd.n_wall + wd.n_clump)
    return out


@ti.func
def sink(md: ti.template(), wd, share, shares: ti.template()):  # in:
    """The ``ShareSink`` of share `share` of world wd (where its partials lie; module docstring).

    In/out — in md: world_param.
    """
    kf = _kface_count(md, wd)
    base = L.LEDGER_SIZE + kf
    stride = SUMS + wd.n_clump * CLUMP_ENTRY + wd.n_slot * SLOT_ENTRY + 2 * kf
    start = base + wd.n_clump + share * stride
    clumps = start + SUMS
    slots = clumps + wd.n_clump * CLUMP_ENTRY
    return ShareSink(row=wd.index, share=share, base=base, sums=start, clumps=clumps, slots=slots,
                     kface=slots + wd.n_slot * SLOT_ENTRY, stride=stride, clump0=wd.clump0, slot0=wd.slot0)


@ti.func
def _add_at(sk, col, value,  # in:
            dg: ti.template()):  # out:
    """In/out — out dg: ledger[sk.row, col + i] += value[i] (plain: only the share's thread writes there)."""
    for i in ti.static(range(value.n)):
        dg.ledger[sk.row, col + i] = dg.ledger[sk.row, col + i] + value[i]


@ti.func
def clump_add(sk, c, part: ti.template(), value,  # in:
              dg: ti.template()):  # out:
    """Add `value` to share sk's partial of clump c from part `part` (P_*) on, and flag it.

    In/out — out dg: ledger: the share's partial of c.
    """
    col = sk.clumps + (c - sk.clump0) * CLUMP_ENTRY
    dg.ledger[sk.row, col] = 1.0
    _add_at(sk, col + 1 + part, value, dg)


@ti.func
def slot_add(sk, s, value,  # in:
             dg: ti.template()):  # out:
    """Add `value` (SLOT_PARTS) to share sk's partial of probe slot s (global index), and flag it.

    In/out — out dg: ledger: the share's partial of slot s.
    """
    col = sk.slots + (s - sk.slot0) * SLOT_ENTRY
    dg.ledger[sk.row, col] = 1.0
    _add_at(sk, col + 1, value, dg)


@ti.func
def kface_add(sk, row, col, value,  # in:
              karr: ti.template()):  # out:
    """Add k_n [N/m] to share sk's partial of the interface stiffness sum of column `col` of row `row` of karr (the
    ledger: col ≥ LEDGER_SIZE, interface_stiffness.py), and flag it.

    In/out — out karr: the share's partial of the interface.
    """
    j = sk.kface + 2 * (col - L.LEDGER_SIZE)
    karr[row, j] = 1.0
    karr[row, j + 1] = karr[row, j + 1] + value


@ti.func
def add_sums(sk, sums,  # in:
             dg: ti.template()):  # out:
    """A contact stage's ``contact_sums.ContactSums`` into share sk's sums.

    In/out — out dg: ledger: the share's sums.
    """
    _add_at(sk, sk.sums, ti.Vector([sums.e_damping, sums.e_friction, sums.e_stiffness, sums.e_boundary, sums.e_strain,
                                    ti.cast(sums.count, float)]), dg)
    dg.ledger[sk.row, sk.sums + SUM_WORST] = ti.max(dg.ledger[sk.row, sk.sums + SUM_WORST], sums.worst)


@ti.func
def store_moves(sk, moves,  # in:
                dg: ti.template()):  # out:
    """Share sk's clumps' ledger terms (body, boundary, damping work, kinetic energy: MOVE_*) this step.

    In/out — out dg: ledger: the share's motion sums.
    """
    for i in ti.static(range(4)):
        dg.ledger[sk.row, sk.sums + MOVE_BODY + i] = moves[i]


@ti.func
def snapshot_sleep(st: ti.template(), wd, sk, lane, bd: ti.template(),  # in:
                   dg: ti.template()):  # out:
    """Before the contact stages: each clump's sleep (1: asleep), which the body-pair stage's wakes read instead of
    the live state, so that a wake does not depend on which share ran first (clumps strided over the threads).

    In/out — in st: monitor; out dg: ledger: the snapshot.
    """
    for k in range((wd.n_clump - lane + bd - 1) // bd):
        c = wd.clump0 + lane + k * bd
        dg.ledger[sk.row, sk.base + c - wd.clump0] = 1.0 if LY.asleep(st, c) else 0.0


@ti.func
def slept(dg: ti.template(), sk, c):  # in:
    """Whether clump c slept when the contact stages began (:func:`snapshot_sleep`).

    In/out — in dg: ledger: the snapshot.
    """
    return dg.ledger[sk.row, sk.base + c - sk.clump0] > 0.5


@ti.func
def _sum_flagged(row, flag, col, stride, shares: ti.template(),  # in:
                 dg: ti.template()):  # out:
    """Σ over shares s = 0, 1, ... (in order) of ledger[row, col + s · stride] where ledger[row, flag + s · stride] is
    set; each value read is zeroed.

    In/out — out dg: ledger: the values read, zeroed.
    """
    acc = 0.0
    for s in range(shares):
        if dg.ledger[row, flag + s * stride] > 0.5:
            acc += dg.ledger[row, col + s * stride]
            dg.ledger[row, col + s * stride] = 0.0
    return acc


@ti.func
def _add_part(i, j, first: ti.template(), n: ti.template(), acc, add: ti.template(),  # in:
              arr: ti.template()):  # out:
    """arr[i][first + j] += acc (``add``; else = acc), 0 ≤ j < n (one component of a vector element: static component
    indices, which every backend's code generator takes; other threads may write the element's other components
    meanwhile).

    In/out — out arr: arr[i][first + j].
    """
    for k in ti.static(range(n)):
        if j == k:
            if ti.static(add):
                arr[i][first + k] = arr[i][first + k] + acc
            else:
                arr[i][first + k] = acc


@ti.func
def reduce_contacts(md: ti.template(), wd, observed, implicit: ti.template(), lane, bd: ti.template(),  # in:
                    shares: ti.template(),
                    st: ti.template(), dg: ti.template(), fsum: ti.template()):  # out:
    """After the contact stages: every clump's partials into its wrench, damping block, other-body force and (on
    observed steps) monitor sums; the shares' contact sums into the ledger, or (bd > 1) into the block's shared fsum,
    which lane 0 adds to the ledger (:func:`add_contact_sums`: the ledger is lane 0's alone, block_counts.py says
    why); on observed steps, the probe slots' partials into the slots (bd > 1: stored, the slots are not cleared
    by lane 0 between; history_rows.record_row). One thread a target component, components strided over the
    block's threads, each summed in share order. Returns a bound on this thread's loop iterations
    (layout.LOOP_BUDGET).

    In/out — in md: world_param; out st: wrench, damp, damp_other, monitor += (the world's clumps); out dg: ledger
    (the step's contact sums, bd = 1; the partials read, zeroed), slots (observed steps); out fsum: the contact
    sums (bd > 1: SUM_WORST + 1 reals).
    """
    sk = sink(md, wd, 0, shares)
    stride = sk.stride
    parts = ti.static(P_MONITOR if implicit else P_DAMP)  # (the explicit form adds no damping blocks)
    n_clump_items = wd.n_clump * parts
    cost = 0
    for k in range((n_clump_items - lane + bd - 1) // bd):
        item = lane + k * bd
        cl = item // parts
        j = item % parts
        entry = sk.clumps + cl * CLUMP_ENTRY
        acc = _sum_flagged(sk.row, entry, entry + 1 + j, stride, shares, dg)
        c = wd.clump0 + cl
        if j < P_DAMP:
            _add_part(c, j - P_WRENCH, 0, LY.WRENCH_WIDTH, acc, True, st.wrench)
        elif j < P_OTHER:
            _add_part(c, j - P_DAMP, 0, DAMP_WIDTH, acc, True, st.damp)
        else:
            _add_part(c, j - P_OTHER, 0, 6, acc, True, st.damp_other)
        cost += shares
    if observed:  # the monitor's stiffness sums and the probe slots
        for k in range((wd.n_clump * 3 - lane + bd - 1) // bd):
            item = lane + k * bd
            cl = item // 3
            entry = sk.clumps + cl * CLUMP_ENTRY
            acc = _sum_flagged(sk.row, entry, entry + 1 + P_MONITOR + item % 3, stride, shares, dg)
            c = wd.clump0 + cl
            _add_part(c, item % 3, LY.MON_KN, 3, acc, True, st.monitor)
            cost += shares
        for k in range((wd.n_slot * SLOT_PARTS - lane + bd - 1) // bd):
            item = lane + k * bd
            entry = sk.slots + (item // SLOT_PARTS) * SLOT_ENTRY
            acc = _sum_flagged(sk.row, entry, entry + 1 + item % SLOT_PARTS, stride, shares, dg)
            s = wd.slot0 + item // SLOT_PARTS
            _add_part(s, item % SLOT_PARTS, 0, SLOT_PARTS, acc, bd == 1, dg.slots)
            cost += shares
    for j in ti.static(range(SUM_WORST + 1)):  # the contact sums: one thread each (every share wrote its own)
        if j % bd == lane:
            acc = 0.0
            for s in range(shares):
                col = sk.sums + s * stride + j
                if ti.static(j == SUM_WORST):
                    acc = ti.max(acc, dg.ledger[sk.row, col])
                else:
                    acc += dg.ledger[sk.row, col]
                dg.ledger[sk.row, col] = 0.0
            if ti.static(bd > 1):
                fsum[j] = acc
            elif ti.static(j == SUM_WORST):
                dg.ledger[sk.row, L.MAX_OVERLAP] = ti.max(dg.ledger[sk.row, L.MAX_OVERLAP], acc)
            else:
                dg.ledger[sk.row, SUM_COLUMNS[j]] = dg.ledger[sk.row, SUM_COLUMNS[j]] + acc
            cost += shares
    return cost + 3


@ti.func
def add_contact_sums(w, fsum: ti.template(),  # in:
                     dg: ti.template()):  # out:
    """Lane 0 (bd > 1), after the barrier that follows :func:`reduce_contacts`: the step's contact sums from the
    block's shared fsum into world w's ledger (before :func:`add_summed_moves`, as the adds were ordered
    before).

    In/out — in fsum: the contact sums; out dg: ledger[w]: the step's contact sums, the largest overlap.
    """
    for j in ti.static(range(SUM_WORST + 1)):
        if ti.static(j == SUM_WORST):
            dg.ledger[w, L.MAX_OVERLAP] = ti.max(dg.ledger[w, L.MAX_OVERLAP], fsum[j])
        else:
            dg.ledger[w, SUM_COLUMNS[j]] = dg.ledger[w, SUM_COLUMNS[j]] + fsum[j]


@ti.func
def reduce_kface(md: ti.template(), wd, walls, lane, bd: ti.template(), shares: ti.template(),  # in:
                 dg: ti.template()):  # out:
    """After a stiffness pass: the interface stiffness sums K_I of the world's body interfaces (walls = 0) or wall
    interfaces (1) from the shares' partials, in share order, stored (not added: no share's partial, K_I = 0).
    Returns a bound on this thread's loop iterations.

    In/out — in md: world_param; out dg: ledger: the interface sums; the partials read, zeroed.
    """
    sk = sink(md, wd, 0, shares)
    kf = _kface_count(md, wd)
    stride = sk.stride
    width = wd.n_wall + wd.n_clump
    cost = 0
    for k in range((kf - lane + bd - 1) // bd):
        col = lane + k * bd
        is_wall = 1 if col % width < wd.n_wall else 0
        if is_wall == walls:
            j = sk.kface + 2 * col
            dg.ledger[sk.row, L.LEDGER_SIZE + col] = _sum_flagged(sk.row, j, j + 1, stride, shares, dg)
            cost += shares
    return cost + 1


@ti.func
def clear_flags(md: ti.template(), wd, c, observed, lane, bd: ti.template(), shares: ti.template(),  # in:
                dg: ti.template()):  # out:
    """After the reduction: clump c's flags in every share (c < 0: none), and, strided over the threads, those of
    the probe slots (observed steps) and the interface sums, so that every flag is 0 between steps.

    In/out — in md: world_param; out dg: ledger: the flags.
    """
    sk = sink(md, wd, 0, shares)
    kf = _kface_count(md, wd)
    stride = sk.stride
    if c >= 0:
        for s in range(shares):
            dg.ledger[sk.row, sk.clumps + (c - wd.clump0) * CLUMP_ENTRY + s * stride] = 0.0
    else:
        n_slot_flags = 0
        if observed:
            n_slot_flags = wd.n_slot * shares
        for k in range((n_slot_flags - lane + bd - 1) // bd):
            item = lane + k * bd
            dg.ledger[sk.row, sk.slots + (item % wd.n_slot) * SLOT_ENTRY + (item // wd.n_slot) * stride] = 0.0
        for k in range((kf * shares - lane + bd - 1) // bd):
            item = lane + k * bd
            dg.ledger[sk.row, sk.kface + 2 * (item % kf) + (item // kf) * stride] = 0.0


@ti.func
def add_moves(md: ti.template(), wd, shares: ti.template(),  # in:
              dg: ti.template()):  # out:
    """One thread a world, before the ledger's close: the shares' clump terms (MOVE_*) into the ledger, in share
    order, each read zeroed. (With several threads :func:`sum_moves` and :func:`add_summed_moves` form the same sums:
    every share stores its terms every step, store_moves, so that lane 0 stores nothing another thread's store must
    follow, block_counts.py.)

    In/out — in md: world_param; out dg: ledger: the step's body, boundary, damping work and kinetic energy.
    """
    sk = sink(md, wd, 0, shares)
    for i in ti.static(range(4)):
        dg.ledger[sk.row, MOVE_COLUMNS[i]] = dg.ledger[sk.row, MOVE_COLUMNS[i]] + _move_sum(sk, i, shares, True, dg)


@ti.func
def sum_moves(md: ti.template(), wd, shares: ti.template(), lane, bd: ti.template(),  # in:
              dg: ti.template(), fsum: ti.template()):  # out:
    """Several threads a world, after the motion stage's barrier: each of the shares' clump terms MOVE_i summed in
    share order by a thread of its own (issue 30, item 2: four lanes where lane 0 did all four), into the block's
    shared fsum[FSUM_MOVES + i] for :func:`add_summed_moves` after a barrier: the sums :func:`add_moves` forms, term
    for term. Returns a bound on this thread's loop iterations.

    In/out — in md: world_param; in dg: ledger: the shares' motion sums; out fsum: their sums.
    """
    sk = sink(md, wd, 0, shares)
    for k in range((4 - lane + bd - 1) // bd):
        i = lane + k * bd
        fsum[FSUM_MOVES + i] = _move_sum(sk, i, shares, False, dg)
    return ((4 + bd - 1) // bd) * (shares + 1)


@ti.func
def _move_sum(sk, i, shares: ti.template(), clear: ti.template(),  # in:
              dg: ti.template()):  # out:
    """The shares' motion term MOVE_BODY + i added up in share order (``clear``: each read zeroed).

    In/out — out dg: ledger: the shares' motion sums read (zeroed with ``clear``).
    """
    acc = 0.0
    for s in range(shares):
        col = sk.sums + s * sk.stride + MOVE_BODY + i
        acc += dg.ledger[sk.row, col]
        if ti.static(clear):
            dg.ledger[sk.row, col] = 0.0
    return acc


@ti.func
def add_summed_moves(w, fsum: ti.template(),  # in:
                     dg: ti.template()):  # out:
    """Lane 0 (bd > 1), after :func:`add_contact_sums`: the shares' motion sums of :func:`sum_moves` into world w's
    ledger (the step's body, boundary, damping work and kinetic energy).

    In/out — in fsum: the motion sums; out dg: ledger[w].
    """
    for i in ti.static(range(4)):
        dg.ledger[w, MOVE_COLUMNS[i]] = dg.ledger[w, MOVE_COLUMNS[i]] + fsum[FSUM_MOVES + i]
