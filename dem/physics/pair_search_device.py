"""Broad phase between bodies on the device (block path): one thread block searches its world's body pairs
without the host, when two of its bodies may have moved closer than the pair skin.

Candidates are the pairs of hull spheres of different clumps within the pair skin of touching, found
cluster pair by cluster pair: a pair of clusters (g, h), g < h of different clumps, whose bounding spheres
are within the skin of each other, has its spheres tested pair by pair. The cluster pairs of a world are
numbered q = 0, 1, ... in (g, h) order — cluster_range[g][3] holds how many valid pairs precede g
(``DeviceModel``), world_info[WI_NCLUSTER_PAIRS] the total — and each thread of the block takes a
contiguous range of q. The list is written without atomics (Taichi's Vulkan code generator mishandles
integer atomics inside loops): a first pass counts each thread's pairs, a block-wide exclusive scan gives
each thread its offset, a second pass writes. So the list comes out sorted by (g, h, i, j), the same
order every time, and the shear history of a pair that stays is found in the previous list by binary
search on that key. The new list goes into the other half of the world's pair region; the halves swap.

Count and write. The passes are one call site run in a loop (one inlined copy), but nothing promises that two
passes compiled with fast math decide a sphere on the skin's edge alike. So a write pass never writes past the
slots its count pass counted (its ``limit``), and it returns how many it found: if some thread's differs from its
count, the block scans those numbers and writes again at their offsets (the same code and arguments as the write
pass before); should that still differ, lane 0 writes the whole list alone in one pass (what it counts is then
what it writes). The list therefore holds what one pass wrote, each entry once, and no slot left from before;
the wall-candidate rebuild (step_blocks.py) does the same.

The host search (pair_search.py) finds the same set; it is used to start a run and on the serial path.
"""

from ..device import layout as LY
from ..device import runtime
from ..device.kernel_lang import NAME, ti
from ..model.contact_solid import GENERAL, IDLE
from . import block_counts as BC
from . import share_sums as SS
from .contact_geometry import sphere_centre
from .contact_solid import classify_entry, distance_to_solid, solid_row, solid_trips

# The count pass's skin over the write pass's, in both count/write pairs of the block path (the body pairs here, the
# wall candidates in step_blocks.py). 1 in every run; a test compiles the block path with another value (in a
# process of its own: the value is read when the kernel compiles) to make the two passes disagree on the spheres
# between the two skins, as two passes compiled apart with fast math might on a sphere on the skin's edge.
COUNT_PASS_SKIN_SCALE = 1.0


@ti.func
def count_pass_skin(skin, phase):
    """The skin [m] of pass `phase` of a count/write pair (0: the count pass; see COUNT_PASS_SKIN_SCALE)."""
    out = skin
    if ti.static(COUNT_PASS_SKIN_SCALE != 1.0):
        if phase == 0:
            out = skin * COUNT_PASS_SKIN_SCALE
    return out


@ti.func
def exclusive_scan(lane, count, bd: ti.template(),  # in:
                   scan: ti.template()):  # out:
    """Block-wide exclusive prefix sum of one integer per thread: (this thread's offset, the total).
    ``scan`` is a shared array of bd + 1 integers (unused with one thread per block).

    In/out — out scan: the block's scratch (bd + 1 integers).
    """
    offset = 0
    total = count
    if ti.static(bd > 1):
        scan[lane] = count
        ti.simt.block.sync()
        if lane == 0:
            acc = 0
            for k in range(bd):
                x = scan[k]
                scan[k] = acc
                acc += x
            scan[bd] = acc
        ti.simt.block.sync()
        offset = scan[lane]
        total = scan[bd]
        ti.simt.block.sync()  # the array is free again once everyone has read it
    return offset, total



@ti.func
def after_pass(phase, found, mine, offset, total, redo, lane, bd: ti.template(),  # in:
               scan: ti.template()):  # out:
    """After pass `phase` (0 the count, 1 and 2 writes) of a count/write pair in which this thread found `found`
    items against `mine` before: where any thread of the block found another number (always after the count),
    the new shares' offsets and total by a block-wide scan and redo = phase (the pass after a disagreement);
    else all as they were. Returns (mine, offset, total, redo), the same redo in every thread.

    In/out — out scan: the block's scan scratch.
    """
    differs = 1
    if phase > 0:  # (the same for every thread: the block's largest difference)
        differs = block_max(lane, ti.abs(found - mine), bd, scan)
    if differs > 0:
        redo = phase  # 0 after the count pass; 1, 2 after a write pass that found another number
        mine = found
        offset, total = exclusive_scan(lane, mine, bd, scan)
    return mine, offset, total, redo


STORAGE_FENCE = False  # whether block_sync fences the storage buffers too (set at init: _define_fence)


def _define_fence(real) -> None:  # noqa: ARG001 (runtime.define_types hands every builder the real type)
    """Quadrants on a SPIR-V backend (Vulkan, Metal): its qd.simt.grid.mem_fence is a device-scope memory barrier
    with UniformMemory semantics (OpMemoryBarrier Device, AcquireRelease | UniformMemory | WorkgroupMemory), the
    storage-buffer fence the block barrier lacks there. Taichi 1.7.4's grid.memfence emits nothing on SPIR-V; on
    CUDA and the CPU the barrier orders global memory already."""
    global STORAGE_FENCE
    STORAGE_FENCE = NAME == "quadrants" and runtime.device_name() in ("vulkan", "metal")


runtime.define_types(_define_fence)


@ti.func
def block_sync(bd: ti.template()):
    """The block's barrier between stages: every thread's memory accesses before it against every thread's after it.
    A block barrier orders shared memory on every backend and global memory on CUDA; on the SPIR-V backends Taichi's
    and quadrants' barrier has workgroup-memory semantics only, so with quadrants a storage-buffer fence goes on
    each side of it (STORAGE_FENCE: a thread's global stores released before the barrier, acquired by the others
    after it; step_blocks.py, "What orders what"). The block scans' own barriers (exclusive_scan, block_max) order
    their shared scratch alone."""
    if ti.static(bd > 1):
        if ti.static(STORAGE_FENCE):
            ti.simt.grid.mem_fence()
        ti.simt.block.sync()
        if ti.static(STORAGE_FENCE):
            ti.simt.grid.mem_fence()


@ti.func
def chunk(n, lane, bd: ti.template()):
    """Contiguous share [k0, k1) of n items for thread `lane` of a block of bd threads."""
    size = (n + bd - 1) // bd
    k0 = ti.min(lane * size, n)
    return k0, ti.min(k0 + size, n)


@ti.func
def _prefix(md: ti.template(), wd, g):  # in:
    """Valid cluster pairs (g', h) with g' < g in world wd (g global; g = cluster0 + n_cluster gives the total).

    In/out — in md: world_info, cluster_range.
    """
    out = md.world_info[wd.index, LY.WI_NCLUSTER_PAIRS]
    if g < wd.cluster0 + wd.n_cluster:
        out = md.cluster_range[g][3]
    return out


@ti.func
def _first_partner(md: ti.template(), wd, g):  # in:
    """First cluster h that cluster g pairs with: the clusters of the clumps after g's, to the world's end.

    In/out — in md: world_info, cluster_range.
    """
    return wd.cluster0 + wd.n_cluster - (_prefix(md, wd, g + 1) - _prefix(md, wd, g))


@ti.func
def _locate(md: ti.template(), wd, q):  # in:
    """The cluster g whose pairs hold pair number q (the last g with prefix(g) ≤ q).

    In/out — in md: world_info, cluster_range.
    """
    lo = wd.cluster0
    hi = wd.cluster0 + wd.n_cluster - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _prefix(md, wd, mid) <= q:
            lo = mid
        else:
            hi = mid - 1
    return lo


@ti.func
def _first_of_clump(md: ti.template(), g):  # in:
    """Whether cluster g is its clump's first.

    In/out — in md: cluster_range.
    """
    first = True
    if g > 0:
        first = md.cluster_range[g - 1][2] != md.cluster_range[g][2]
    return first


@ti.func
def _solid_entries(md: ti.template(), spheres, sphere_body, x_body, r_body, cl, solid_body, x_solid, r_solid,  # in:
                   skin, g, h, base, k0, limit, write, sphere_first,
                   ct: ti.template()):  # out:
    """Entries of the hull spheres of cluster `spheres` (cluster_range row; its bounding sphere cl, clump sphere_body
    at pose x_body, r_body) within `skin` [m] of the solid of clump solid_body (pose x_solid, r_solid), but for those
    that take no share of the stiffness until the next search (contact_solid.classify_entry): (i, −1 − solid_body, g,
    h, hint) when ``sphere_first``, else (−1 − solid_body, i, g, h, hint); stored from pairs[base + k0] with
    ``write``, never at pairs[base + limit] or past it. Returns how many (written or not), and the loop iterations
    run.

    In/out — in md: sph_body, clump_param, solid; out ct: pairs[base + k0 ... base + limit) (with ``write``).
    """
    row0 = solid_row(md, solid_body)
    own_row = solid_row(md, sphere_body)
    own_bound = md.clump_param[sphere_body][LY.CP_RADIUS]
    bound = md.clump_param[solid_body][LY.CP_RADIUS]
    per = 1 + solid_trips(md.solid, row0)
    idle_per = 0  # classify_entry's loop iterations: its parts, 2 scans of the solid's faces, 3 of its own body's
    if own_row >= 0:  # (a part of n vertices has ≤ n + 2 faces ≤ 2 (n + 1): solid_trips counts n + 1)
        idle_per = 5 * per + 6 * solid_trips(md.solid, own_row)
    k = k0
    trips = per
    if distance_to_solid(md.solid, sphere_centre(x_body, r_body, cl), x_solid, r_solid, row0) - cl[3] < skin:
        trips += spheres[1] * (per + idle_per)
        for i in range(spheres[0], spheres[0] + spheres[1]):
            bi = md.sph_body[i]
            xi = sphere_centre(x_body, r_body, bi)
            hint = IDLE
            if distance_to_solid(md.solid, xi, x_solid, r_solid, row0) - bi[3] < skin:
                hint = classify_entry(md.solid, xi, r_body, own_row, own_bound, x_solid, r_solid, row0, bound,
                                      sphere_first, skin)
            if hint != IDLE:
                if write == 1 and k < limit:
                    p, q = i, -1 - solid_body
                    if sphere_first == 0:
                        p, q = -1 - solid_body, i
                    ct.pairs[base + k] = ti.Vector([p, q, g, h, hint])
                k += 1
    return k - k0, trips


@ti.func
def _cluster_pair(md: ti.template(), st: ti.template(), g, h, skin, base, k0, limit, write,  # in:
                  ct: ti.template()):  # out:
    """Entries of clusters g and h (of clumps a < b) within `skin` [m] of touching, stored as (p, q, g, h, hint) at
    pairs[base + k0 ... base + limit) with ``write`` (pair_entry.py): sphere pairs when neither body has a solid
    (none unless the bounding spheres are within the skin); otherwise h's spheres against a's solid when g is a's
    first cluster, then g's spheres against b's solid when h is b's first cluster (each cluster against each other
    body's solid once, in the list's (g, h, p, q) order). Returns how many (written or not), and the loop
    iterations run.

    In/out — in md: cluster_range, cluster_body, sph_body, clump_param, solid; in st: pos, rot; out ct: pairs[base +
    k0 ... base + limit) (with ``write``).
    """
    rg = md.cluster_range[g]
    rh = md.cluster_range[h]
    a = rg[2]
    b = rh[2]
    xa = st.pos[a]
    ra = st.rot[a]
    xb = st.pos[b]
    rb = st.rot[b]
    cg = md.cluster_body[g]
    ch = md.cluster_body[h]
    k = k0
    trips = 1
    xg = sphere_centre(xa, ra, cg)
    xh = sphere_centre(xb, rb, ch)
    if solid_row(md, a) >= 0 or solid_row(md, b) >= 0:
        for side in range(2):  # h's spheres against a's solid, then g's against b's (one call site: inlined once)
            spheres, own, x_own, r_own, cl, solid_body, x_solid, r_solid, first = rh, b, xb, rb, ch, a, xa, ra, 0
            meets = solid_row(md, a) >= 0 and _first_of_clump(md, g)
            if side == 1:
                spheres, own, x_own, r_own, cl, solid_body, x_solid, r_solid, first = rg, a, xa, ra, cg, b, xb, rb, 1
                meets = solid_row(md, b) >= 0 and _first_of_clump(md, h)
            if meets:
                n, t = _solid_entries(md, spheres, own, x_own, r_own, cl, solid_body, x_solid, r_solid, skin, g, h,
                                      base, k, limit, write, first, ct)
                k += n
                trips += t
    elif (xg - xh).norm() < cg[3] + ch[3] + skin:
        trips += rg[1] * (1 + rh[1])
        for i in range(rg[0], rg[0] + rg[1]):
            bi = md.sph_body[i]
            xi = sphere_centre(xa, ra, bi)
            for j in range(rh[0], rh[0] + rh[1]):
                bj = md.sph_body[j]
                xj = sphere_centre(xb, rb, bj)
                if (xi - xj).norm() - bi[3] - bj[3] < skin:
                    if write == 1 and k < limit:
                        ct.pairs[base + k] = ti.Vector([i, j, g, h, GENERAL])
                    k += 1
    return k - k0, trips


@ti.func
def search_range(md: ti.template(), st: ti.template(), wd, q0, q1, skin, base, k0, limit, write,  # in:
                 ct: ti.template()):  # out:
    """Sphere pairs of the cluster pairs numbered q0 ≤ q < q1 (see the module docstring), stored from pairs[base +
    k0] with ``write``, never at pairs[base + limit] or past it; returns how many (written or not), and the loop
    iterations run.

    In/out — in md: cluster_range, cluster_body, sph_body, world_info; in st: pos, rot; out ct: pairs[base + k0 ...
    base + limit) (with ``write``).
    """
    k = 0
    trips = 0
    if q0 < q1:
        g = _locate(md, wd, q0)
        h = _first_partner(md, wd, g) + (q0 - _prefix(md, wd, g))
        end = wd.cluster0 + wd.n_cluster
        trips += 32  # the binary search
        for _q in range(q0, q1):
            found, t = _cluster_pair(md, st, g, h, skin, base, k0 + k, limit, write, ct)
            k += found
            trips += t
            h += 1
            if h == end:
                g += 1
                while g < end and _prefix(md, wd, g + 1) == _prefix(md, wd, g):
                    g += 1
                    trips += 1
                h = _first_partner(md, wd, g) if g < end else end
    return k, trips


@ti.func
def _before(p, q):
    """Pair p comes before pair q in (g, h, i, j) order."""
    result = False
    if p[2] != q[2]:
        result = p[2] < q[2]
    elif p[3] != q[3]:
        result = p[3] < q[3]
    elif p[0] != q[0]:
        result = p[0] < q[0]
    else:
        result = p[1] < q[1]
    return result


@ti.func
def carried_history(ct: ti.template(), key, old_base, n_old):  # in:
    """Shear history of pair `key` in the previous list (sorted, n_old pairs from old_base), zero if absent.

    In/out — in ct: pairs, pair_hist of the previous list.
    """
    lo = 0
    hi = n_old
    while lo < hi:
        mid = (lo + hi) // 2
        if _before(ct.pairs[old_base + mid], key):
            lo = mid + 1
        else:
            hi = mid
    out = ti.Vector([0.0] * LY.HIST_WIDTH)
    if lo < n_old:
        p = ct.pairs[old_base + lo]
        if p[0] == key[0] and p[1] == key[1]:
            out = ct.pair_hist[old_base + lo]
    return out


@ti.func
def block_pair_search(md: ti.template(), wd, skin, pair_cap, lane, bd: ti.template(), per: ti.template(),  # in:
                      order: ti.template(),
                      scan: ti.template(), st: ti.template(), ct: ti.template()):  # out:
    """Search world wd's body pairs with the bd threads of its block (module docstring). Sets the world's
    pair count and list half, or counts[CT_OVERFLOW] = 1 (list unchanged) when pair_cap is too small (lane 0,
    with the block's copies: block_counts.py). The clumps' pair motion restarts: with several threads a block,
    each thread restarts the clumps it moves (step_blocks.split_motion_stage; per, order: its shares' turns), so
    that no thread's store must reach another. Returns a bound on the loop iterations this thread ran
    (layout.LOOP_BUDGET).

    In/out — in md: cluster_range, cluster_body, sph_body, world_info; out scan: the block's scratch and copies; out st:
    monitor's pair motion restarts (reads pos, rot); out ct: pairs, pair_hist of the new list half; counts[w]: pair
    half, count, searches, recounts, overflow.
    """
    w = wd.index
    total_q = md.world_info[w, LY.WI_NCLUSTER_PAIRS]
    q0, q1 = chunk(total_q, lane, bd)
    half = BC.count(ct, w, BC.PAIR_HALF, bd, scan)
    old_base = (2 * w + half) * pair_cap
    new_base = (2 * w + 1 - half) * pair_cap
    n_old = BC.count(ct, w, BC.N_PAIRS, bd, scan)
    mine = 0
    trips = 0
    offset = 0
    total = 0
    redo = 0
    for phase in range(4):  # count, write, and the passes after a disagreement (module docstring): one call site
        if (phase < 2 or redo >= phase - 1) and total <= pair_cap:
            a, b, k0, limit = q0, q1, offset, offset + mine
            if phase == 3:
                a, b, k0, limit = 0, 0, 0, pair_cap
                if lane == 0:
                    b = total_q
            found, t = search_range(md, st, wd, a, b, count_pass_skin(skin, phase), new_base, k0, limit,
                                    1 if phase > 0 else 0, ct)
            trips += t + bd
            if phase == 3:
                total = block_max(lane, found, bd, scan)  # lane 0's: the others found none
            else:
                mine, offset, total, redo = after_pass(phase, found, mine, offset, total, redo, lane, bd, scan)
    cost = trips + bd
    if total <= pair_cap:
        block_sync(bd)
        k0, k1 = chunk(total, lane, bd)
        cost += (k1 - k0) * 32 + wd.n_clump
        for k in range(k0, k1):
            ct.pair_hist[new_base + k] = carried_history(ct, ct.pairs[new_base + k], old_base, n_old)
        block_sync(bd)
        if lane == 0:
            ct.counts[w, LY.CT_PAIR_HALF] = 1 - half
            ct.counts[w, LY.CT_N_PAIRS] = total
            BC.publish(ct, w, BC.PAIR_HALF, 1 - half, bd, scan)
            BC.publish(ct, w, BC.N_PAIRS, total, bd, scan)
            ct.counts[w, LY.CT_PAIR_SEARCHES] = ct.counts[w, LY.CT_PAIR_SEARCHES] + 1
            if redo > 0:
                ct.counts[w, LY.CT_RECOUNTS] = ct.counts[w, LY.CT_RECOUNTS] + 1
            if ti.static(bd == 1):
                for c in range(wd.clump0, wd.clump0 + wd.n_clump):
                    st.monitor[c][LY.MON_PAIR_MOTION] = 0.0
        if ti.static(bd > 1):
            cost += _restart_pair_motion(wd, lane, bd, per, order, st)
    elif lane == 0:
        ct.counts[w, LY.CT_OVERFLOW] = 1
        BC.publish(ct, w, BC.OVERFLOW, 1, bd, scan)
    block_sync(bd)
    return cost


@ti.func
def _restart_pair_motion(wd, lane, bd: ti.template(), per: ti.template(), order: ti.template(),  # in:
                         st: ti.template()):  # out:
    """After a search (bd > 1): the pair motion of the clumps this thread moves (step_blocks.split_motion_stage:
    share s the clumps c − clump0 ≡ s mod bd · per) restarts. Returns a bound on the loop iterations.

    In/out — out st: monitor's pair motion of this thread's clumps.
    """
    shares = ti.static(bd * per)
    for v in range(per):
        first = SS.share_of(lane, v, bd, per, order)
        for k in range((wd.n_clump - first + shares - 1) // shares):
            st.monitor[wd.clump0 + first + k * shares][LY.MON_PAIR_MOTION] = 0.0
    return per * (wd.n_clump // shares + 1)


@ti.func
def block_max(lane, value, bd: ti.template(),  # in:
              scan: ti.template()):  # out:
    """The largest of one integer per thread, over the block (``scan`` as in :func:`exclusive_scan`).

    In/out — out scan: the block's scratch.
    """
    out = value
    if ti.static(bd > 1):
        scan[lane] = value
        ti.simt.block.sync()
        if lane == 0:
            m = 0
            for k in range(bd):
                m = ti.max(m, scan[k])
            scan[bd] = m
        ti.simt.block.sync()
        out = scan[bd]
        ti.simt.block.sync()
    return out
