"""Named slots of the packed device arrays, and small accessors for them.

Device arrays pack several quantities per body, wall or world into one vector so that a kernel binds few
buffers (Taichi's Vulkan backend handles at most ~30 per kernel, see runtime.MAX_KERNEL_ARRAYS). The
constants below name every slot; kernels read and write through them (or the accessors), never through
bare numbers. The ledger (ledger.py), the damping block (damping_layout.py) and the history row (history_rows.py) keep
their own layouts beside the quantities they describe.

Per clump (``State.monitor``, vec8), each slot with the code that writes it (adds, sets, restarts):
    MON_WALL_MOTION   bound on any hull point's motion since the last wall-candidate rebuild [m]: added by the law
                      of motion (integrator), restarted by the skin test that rebuilds (step.begin_step)
    MON_KN            Σ k_n of its contacts at the last observed step [N/m]: the history stage (history_rows.py) only
    MON_KN_LEVER2     Σ k_n |r × n|² [N·m]: the history stage only
    MON_CN            Σ c_n [N·s/m]: the history stage only
    MON_QUIET         steps in a row below the sleep thresholds: the sleep logic of integrator.py only (the law of
                      motion, integrator.wake_if_unbalanced and integrator.wake, which the contact stages call)
    MON_ASLEEP        1 while asleep, else 0: the same
    MON_PAIR_MOTION   bound on any hull point's motion since the last body-pair search [m]: added by the law of
                      motion, restarted by the body-pair search that ran (host or device)
    (slot 7 unused)

Per contact (``ContactArrays.hist``, ``ContactArrays.pair_hist``, vec5), the contact's history, for every contact law:
    HIST_SHEAR        elastic shear force of the last step [N], world frame (3 slots)
    HIST_IMPACT       approach speed δ̇⁻ when the contact formed [m/s] (impact laws); 0 while the contact is open
    HIST_KS           shear stiffness k_s of the last step [N/m] (the energy ledger's stiffness-change work and
                      the "rescale" shear unloading, contact_law.shear_force)

Per body-pair entry, this step only (the spare half of ``Contacts.pair_hist``: contacts.py), what the step's geometry
pass found for the force pass (physics/pair_geometry_pass.py writes it, physics/pair_contact.py reads it):
    PG_NORMAL         the normal from b towards a (3 slots), as pair_entry.pair_geometry gives it
    PG_OVERLAP        the overlap δ [m]
    PG_SHARE          the entry's share of the contact stiffness [-] (pair_entry.entry_share); 0 when it does not
                      touch (or its share is 0), PG_SKIPPED when the pass left it out (two sleeping bodies on a
                      step that records nothing): the force pass leaves it out too

Per wall (``State.wall_state``, vec10): displacement from the wall's origin at t_n [m] (WS_DISP, 3 slots),
motion bound since the last rebuild [m] (WS_MOTION), velocity at t_{n−½} (WS_VEL_HALF, 3) and at t_n
(WS_VEL_NOW, 3) [m/s].

Per clump (``DeviceModel.clump_param``, vec15): mass [kg], bounding radius about the centre of mass [m],
PFC local damping coefficient [-], fixed-DOF bitmask (x, y, z, rx, ry, rz; a small integer held exactly in a
real), inertia tensor about the centre of mass in the body frame, row by row [kg·m²], the first ``md.solid`` row
of the solid other bodies' spheres meet (−1: none; a row index held exactly in a real), its material (world-local
index). Per wall
(``DeviceModel.wall_geom``, vec16): origin [m], unit normal, u and v axes, half lengths along u and v [m]
(0: infinite plane), the world-local material index, the interval of its velocity table [s].

Per world, the diagnostics' row ``DiagArgs.ledger[w]`` holds two regions: the energy ledger's columns [0,
ledger.LEDGER_SIZE) (written by history_rows.py only) and, under damping_mass "shared", the interface stiffness sums
K_I from ledger.LEDGER_SIZE on, one column per (body, wall) and (body, body) interface (:func:`kface_column`;
written by pair_geometry_pass.py and interface_stiffness.py only, read by the contact stages). They share one array
because a kernel binds at most runtime.MAX_KERNEL_ARRAYS arrays.

Per world: integers ``world_info`` (offsets of the world's bodies, spheres, walls, ... in the concatenated
arrays, see WI_*), reals ``world_param`` (gravity, skins, sleep thresholds, see WP_*), and the counters
``ContactArrays.counts`` (see CT_*), one row per world.
"""

from .kernel_lang import ti

# ---------------------------------------------------------------- per clump: monitor
MON_WALL_MOTION, MON_KN, MON_KN_LEVER2, MON_CN, MON_QUIET, MON_ASLEEP, MON_PAIR_MOTION = range(7)
MONITOR_WIDTH = 8

# ---------------------------------------------------------------- per clump: wrench (contact force, moment)
WR_FORCE, WR_TORQUE = 0, 3
WRENCH_WIDTH = 6

# ---------------------------------------------------------------- per contact: hist, pair_hist
HIST_SHEAR, HIST_IMPACT, HIST_KS = 0, 3, 4
HIST_WIDTH = 5

# ---------------------------------------------------------------- per body-pair entry, this step: the spare half
PG_NORMAL, PG_OVERLAP, PG_SHARE = 0, 3, 4
PG_SKIPPED = -1.0

# ---------------------------------------------------------------- per body-pair entry: pairs (physics/pair_entry.py)
PAIR_P, PAIR_Q, PAIR_G, PAIR_H, PAIR_HINT = range(5)  # the two sides, their clusters, the search's hint
PAIR_WIDTH = 5

# ---------------------------------------------------------------- per wall: wall_state
WS_DISP, WS_MOTION, WS_VEL_HALF, WS_VEL_NOW = 0, 3, 4, 7
WALL_STATE_WIDTH = 10

# ---------------------------------------------------------------- per clump / per wall: model parameters
CP_MASS, CP_RADIUS, CP_LOCAL_DAMPING, CP_FIXED, CP_INERTIA = range(5)  # CP_INERTIA: 9 slots
CP_SOLID = 13  # first md.solid row of the body's solid (physics/contact_solid.py), −1: none
CP_MATERIAL = 14  # the body's material (world-local index)
CLUMP_PARAM_WIDTH = 15
WG_ORIGIN, WG_NORMAL, WG_U, WG_V, WG_HALF_U, WG_HALF_V, WG_MATERIAL, WG_TABLE_DT = 0, 3, 6, 9, 12, 13, 14, 15
WALL_GEOM_WIDTH = 16

# ---------------------------------------------------------------- per world: offsets (integers)
# WI_NCLUSTER_PAIRS: pairs of clusters of different clumps (the device pair search's work, see
# pair_search_device.py)
(WI_CLUMP0, WI_NCLUMP, WI_HULL0, WI_NHULL, WI_CLUSTER0, WI_NCLUSTER, WI_WALL0, WI_NWALL, WI_MAT0, WI_NMAT,
 WI_CAND0, WI_IFACE0, WI_NSLOT, WI_SLOT0, WI_NCLUSTER_PAIRS) = range(15)
WORLD_INFO_WIDTH = 15

# ---------------------------------------------------------------- per world: parameters (reals)
# WP_SHARED_MASS: 1 when a material pair of the world shares its dashpot mass (damping_mass = "shared"): its
# steps then sum the interfaces' stiffness (pair_geometry_pass.py, interface_stiffness.py), whose sums K_I follow
# the ledger's columns in the world's ledger row (KFACE_COL0, see kface_column)
WP_GX, WP_GY, WP_GZ, WP_SKIN, WP_PAIR_SKIN, WP_SLEEP_SPEED, WP_SLEEP_STEPS, WP_SHARED_MASS = range(8)
WORLD_PARAM_WIDTH = 8

# ---------------------------------------------------------------- per world: counters (ContactArrays.counts)
# CT_N_CAND wall candidates; CT_REBUILD_FLAG the candidate list is rebuilt this step; CT_REBUILDS rebuilds
# so far; CT_FORCE_REBUILD rebuild requested by the host; CT_WALLS_MOVING a wall moves this step;
# CT_N_PAIRS candidate body pairs; CT_PAIR_STOP the pair skin is exceeded (serial path: steps stop until
# the host searches again); CT_STEPS_DONE steps done in the current launch; CT_STEP the world's step
# counter n (t_n = n Δt); CT_TARGET steps wanted in the current launch; CT_REC_FIRST index of the first
# history row this launch writes; CT_PAIR_HALF which half of the world's pair region holds the current list
# (device pair search); CT_PAIR_SEARCHES device pair searches so far; CT_OVERFLOW a device list overflowed
# its capacity (1: body pairs); CT_ACTIVE the world steps in this launch (0: asleep and fast-forwarded,
# finished, or stopped); CT_RECOUNTS block-path list builds (wall candidates, body pairs) whose write pass found
# another number than their count pass and were written again (pair_search_device.py, "Count and write").
(CT_N_CAND, CT_REBUILD_FLAG, CT_REBUILDS, CT_FORCE_REBUILD, CT_WALLS_MOVING, CT_N_PAIRS, CT_PAIR_STOP,
 CT_STEPS_DONE, CT_STEP, CT_TARGET, CT_REC_FIRST, CT_PAIR_HALF, CT_PAIR_SEARCHES, CT_OVERFLOW,
 CT_ACTIVE, CT_RECOUNTS) = range(16)
COUNTS_WIDTH = 16


# Mesa's lavapipe (Vulkan on the CPU, CI's stand-in for a GPU API) stops every loop of a shader invocation
# once the invocation has run 65,535 loop iterations in all (gallivm's loop limiter): a persistent kernel that
# runs past that is cut mid-step. On SPIR-V backends the block path therefore counts an upper bound of the
# iterations each thread runs (an f64 atomic is a compare-and-swap loop: up to ATOMIC_RETRIES iterations when
# the 8 lanes of a subgroup hit one address) and ends the launch at a step boundary before LOOP_BUDGET.
LOOP_BUDGET = 65535 // 4
ATOMIC_RETRIES = 8


@ti.dataclass
class WorldOffsets:
    """Where one world's items lie in the concatenated device arrays (all indices global): its first clump,
    hull sphere, cluster, wall, material, candidate and slot, and how many of each."""

    index: ti.i32
    clump0: ti.i32
    n_clump: ti.i32
    hull0: ti.i32
    n_hull: ti.i32
    cluster0: ti.i32
    n_cluster: ti.i32
    wall0: ti.i32
    n_wall: ti.i32
    mat0: ti.i32
    n_mat: ti.i32
    cand0: ti.i32  # first slot of the world's wall-candidate region and of its wall-history region
    iface0: ti.i32
    n_slot: ti.i32
    slot0: ti.i32


@ti.func
def load_world(md: ti.template(), w):
    """The :class:`WorldOffsets` of world w."""
    return WorldOffsets(index=w, clump0=md.world_info[w, WI_CLUMP0], n_clump=md.world_info[w, WI_NCLUMP],
                        hull0=md.world_info[w, WI_HULL0], n_hull=md.world_info[w, WI_NHULL],
                        cluster0=md.world_info[w, WI_CLUSTER0], n_cluster=md.world_info[w, WI_NCLUSTER],
                        wall0=md.world_info[w, WI_WALL0], n_wall=md.world_info[w, WI_NWALL],
                        mat0=md.world_info[w, WI_MAT0], n_mat=md.world_info[w, WI_NMAT],
                        cand0=md.world_info[w, WI_CAND0], iface0=md.world_info[w, WI_IFACE0],
                        n_slot=md.world_info[w, WI_NSLOT], slot0=md.world_info[w, WI_SLOT0])


@ti.func
def kface_column(wd, c, other):
    """Column, after the ledger's own, of body c's interface stiffness sum K_I with `other`: a wall's
    world-local index, or n_wall + a body's world-local index (interface_stiffness.py)."""
    return (c - wd.clump0) * (wd.n_wall + wd.n_clump) + other


@ti.func
def uses_shared_mass(md: ti.template(), w):
    return md.world_param[w, WP_SHARED_MASS] > 0.5


@ti.func
def gravity(md: ti.template(), w):
    """Acceleration of gravity of world w [m/s²]."""
    return ti.Vector([md.world_param[w, WP_GX], md.world_param[w, WP_GY], md.world_param[w, WP_GZ]])


@ti.func
def wall_history_index(wd, i, w):
    """Slot of the (hull sphere i, wall w) pair in the wall-history array (both indices global)."""
    return wd.cand0 + (i - wd.hull0) * wd.n_wall + (w - wd.wall0)


@ti.func
def wall_interface_slot(md: ti.template(), wd, c, w):
    """Probe slot of the interface between clump c and wall w, −1 if none."""
    return md.iface_map[wd.iface0 + (c - wd.clump0) * (wd.n_wall + wd.n_clump) + (w - wd.wall0)]


@ti.func
def pair_interface_slot(md: ti.template(), wd, a, b):
    """Probe slot of the interface of clump a with clump b (a's share), −1 if none."""
    return md.iface_map[wd.iface0 + (a - wd.clump0) * (wd.n_wall + wd.n_clump) + wd.n_wall + (b - wd.clump0)]


@ti.func
def material_pair(md: ti.template(), wd, ma, mb):
    """Parameter vector of the contact between world-local materials ma and mb (materials.PAIR_*)."""
    return md.mat_pair[wd.mat0 + ma * wd.n_mat + mb]


@ti.func
def body_material_pair(md: ti.template(), wd, a, b):
    """Parameter vector of the contact between the materials of clumps a and b (every sphere of a body has its
    body's material)."""
    return material_pair(md, wd, ti.cast(md.clump_param[a][CP_MATERIAL], ti.i32),
                         ti.cast(md.clump_param[b][CP_MATERIAL], ti.i32))


@ti.func
def clump_mass(md: ti.template(), c):
    return md.clump_param[c][CP_MASS]


@ti.func
def clump_inertia(md: ti.template(), c):
    """Inertia tensor of clump c about its centre of mass, body frame [kg·m²]."""
    p = md.clump_param[c]
    return ti.Matrix([[p[CP_INERTIA + 3 * i + j] for j in ti.static(range(3))] for i in ti.static(range(3))])


@ti.func
def asleep(st: ti.template(), c):
    return st.monitor[c][MON_ASLEEP] > 0.5


@ti.func
def wall_velocities(st: ti.template(), w):
    """Velocity of wall w at t_{n−½} and at t_n [m/s]."""
    ws = st.wall_state[w]
    return (ti.Vector([ws[WS_VEL_HALF], ws[WS_VEL_HALF + 1], ws[WS_VEL_HALF + 2]]),
            ti.Vector([ws[WS_VEL_NOW], ws[WS_VEL_NOW + 1], ws[WS_VEL_NOW + 2]]))


@ti.func
def wrench_of(force, torque):
    """The vec6 (force [N], moment [N·m]) a contact run adds to a body's ``State.wrench``."""
    return ti.Vector([force[0], force[1], force[2], torque[0], torque[1], torque[2]])


@ti.func
def force_of(st: ti.template(), c):
    """Contact force on clump c accumulated so far [N]."""
    w = st.wrench[c]
    return ti.Vector([w[WR_FORCE], w[WR_FORCE + 1], w[WR_FORCE + 2]])


@ti.func
def torque_of(st: ti.template(), c):
    """Contact moment on clump c about its centre of mass accumulated so far [N·m]."""
    w = st.wrench[c]
    return ti.Vector([w[WR_TORQUE], w[WR_TORQUE + 1], w[WR_TORQUE + 2]])


@ti.func
def accumulate(arr: ti.template(), i, value, shared: ti.template()):
    """arr[i] += value. With ``shared`` (several threads of a world add to the same entry: the block path)
    the add is atomic; otherwise one thread owns the world and a plain load and store is enough, and
    cheaper (an f64 atomic is a compare-and-swap loop on the CPU)."""
    if ti.static(shared):
        arr[i] += value
    else:
        arr[i] = arr[i] + value


@ti.func
def accumulate2(arr: ti.template(), i, j, value, shared: ti.template()):
    """arr[i, j] += value, atomic only when ``shared`` (see :func:`accumulate`)."""
    if ti.static(shared):
        arr[i, j] += value
    else:
        arr[i, j] = arr[i, j] + value
