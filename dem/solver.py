"""The time step, and the two ways of launching it.

A step (004 §2.3, the PFC cycle), in order:
  1. if any body or wall has moved more than the skin since the last rebuild, rebuild the near-wall
     candidate list;
  2. contact forces at t_n from the positions at t_n and the velocities at t_{n−½};
  3. law of motion of every clump: velocities to t_{n+½}, poses to t_{n+1};
  4. walls to t_{n+1};
  5. close the energy ledger of the step and, every ``record_every`` steps, write a record row.

On the CPU backend one kernel launch runs many steps in a serial loop: a launch costs ~0.1 ms here,
far more than a step of a rocking block, and a serial loop over the few hundred or thousand spheres near
the base is faster than spreading them over threads. On GPU backends each step is one launch whose
stages are parallel loops. Both call the same per-index functions.

Reproducibility: the serial CPU path is bit-for-bit deterministic. The parallel path adds contact forces
with atomics in an order that varies between runs, so results agree within round-off growth only.
"""


import numpy as np
import taichi as ti

from . import ledger as L
from . import runtime
from .contacts import (
    FORCE_REBUILD,
    N_CAND,
    N_PAIRS,
    PAIR_STOP,
    REBUILD_FLAG,
    REBUILDS,
    STEPS_DONE,
    WALLS_MOVING,
    Contacts,
)
from .integrator import integrate_clump, move_wall
from .model import Model
from .pair_contact import pair_contact_parallel, pair_contacts_serial
from .pair_search import carry_history, find_pairs
from .record import G_EB, G_ED, G_EF, G_EK, G_ES, G_EW, G_NC, G_OVL, G_REB, G_T, SLOT_WIDTH, RecordLayout
from .state import State
from .wall_contact import (
    rebuild_wall_candidate_pair,
    rebuild_wall_candidates,
    wall_contact_parallel,
    wall_contacts_serial,
)

# Default Verlet skin in smallest radii. A thin skin keeps few candidates beside a tilted face (a block
# tilted by 1° has spheres within 0.2 mm of the floor over 11 mm of its base instead of 140 mm with a
# 2.5 mm skin) at the price of more rebuilds, which the cluster test keeps cheap. Measured on the Peña
# block while rocking: skin 2.5 mm 50 µs/step, 0.5 mm 24 µs/step, 0.2 mm 14 µs/step.
SKIN_RADII = 0.04
# Default skin of the body-pair list in smallest radii: pairs are found on the host, so a rebuild costs a
# pause of the step loop; a wider skin than the walls' (SKIN_RADII) makes them rarer.
PAIR_SKIN_RADII = 0.25

_nd1 = ti.types.ndarray(ndim=1)
_nd2 = ti.types.ndarray(ndim=2)
ModelArgs = ti.types.argpack(sph_body=_nd1, sph_info=_nd1, cluster_body=_nd1, cluster_range=_nd1, clump_param=_nd1,
                             clump_inertia=_nd1,
                             wall_frame=_nd1, wall_info=_nd1, wall_vel=_nd2, mat_pair=_nd2, iface_map=_nd1)
StateArgs = ti.types.argpack(pos=_nd1, quat=_nd1, rot=_nd1, vel=_nd1, omega=_nd1, force=_nd1, torque=_nd1,
                             damp=_nd1, damp_other=_nd1, monitor=_nd1, wall_state=_nd1)
ContactArgs = ti.types.argpack(cand=_nd1, hist=_nd1, counts=_nd1, pairs=_nd1, pair_hist=_nd1)
DiagArgs = ti.types.argpack(ledger=_nd1, slots=_nd1, rec=_nd2)
KERNEL_ARRAY_COUNT = 11 + 11 + 5 + 3
assert KERNEL_ARRAY_COUNT <= runtime.MAX_KERNEL_ARRAYS


@ti.func
def pair_skin_exceeded(st: ti.template(), ct: ti.template(), n_clumps, pair_skin):
    """Stop stepping (counts[PAIR_STOP] = 1) when two bodies may have moved closer than the pair skin since
    the host's last pair search: the sum of the two largest motion bounds reaches the skin."""
    if pair_skin > 0.0:
        first = 0.0
        second = 0.0
        for c in range(n_clumps):
            m = st.monitor[c][6]
            if m > first:
                second = first
                first = m
            elif m > second:
                second = m
        if first + second >= pair_skin:
            ct.counts[PAIR_STOP] = 1


@ti.func
def begin_step(st: ti.template(), ct: ti.template(), dg: ti.template(), n_clumps, n_walls, skin, record):
    """Reset per-step sums, note whether any wall moves, and decide whether the candidate list must be
    rebuilt (Verlet skin)."""
    dg.ledger[L.STRAIN] = 0.0
    dg.ledger[L.CONTACTS] = 0.0
    if record:
        dg.ledger[L.KINETIC] = 0.0
    moved = 0.0
    for c in range(n_clumps):
        moved = ti.max(moved, st.monitor[c][0])
    wall_moved = 0.0
    for w in range(n_walls):
        wall_moved = ti.max(wall_moved, st.wall_state[w][3])
    flag = 0
    # a pair left out was farther apart than the skin; it cannot touch before the two have moved that far
    if moved + wall_moved >= skin or ct.counts[FORCE_REBUILD] == 1:
        flag = 1
        ct.counts[N_CAND] = 0
        ct.counts[REBUILDS] += 1
        ct.counts[FORCE_REBUILD] = 0
        for c in range(n_clumps):
            st.monitor[c][0] = 0.0
        for w in range(n_walls):
            st.wall_state[w][3] = 0.0
    ct.counts[REBUILD_FLAG] = flag
    moving = 0
    for w in range(n_walls):
        ws = st.wall_state[w]
        if ws[4] != 0.0 or ws[5] != 0.0 or ws[6] != 0.0 or ws[7] != 0.0 or ws[8] != 0.0 or ws[9] != 0.0:
            moving = 1
    ct.counts[WALLS_MOVING] = moving


@ti.func
def end_step(ct: ti.template(), dg: ti.template(), t, record, row, n_slots, slot_base):
    """Close the ledger of the step; on record steps write the global and slot columns."""
    if record:
        dg.rec[row, G_T] = t
        # trapezoidal: the work reported at t_n includes half of step n's increment (ledger.py)
        dg.rec[row, G_EB] = dg.ledger[L.BODY] + 0.5 * dg.ledger[L.STEP + L.BODY]
        dg.rec[row, G_EW] = dg.ledger[L.BOUNDARY] + 0.5 * dg.ledger[L.STEP + L.BOUNDARY]
        dg.rec[row, G_ED] = dg.ledger[L.DAMPING] + 0.5 * dg.ledger[L.STEP + L.DAMPING]
        dg.rec[row, G_EF] = dg.ledger[L.FRICTION] + 0.5 * dg.ledger[L.STEP + L.FRICTION]
        dg.rec[row, G_EK] = dg.ledger[L.KINETIC]
        dg.rec[row, G_ES] = dg.ledger[L.STRAIN]
        dg.rec[row, G_NC] = dg.ledger[L.CONTACTS]
        dg.rec[row, G_OVL] = dg.ledger[L.MAX_OVERLAP]
        dg.rec[row, G_REB] = ct.counts[REBUILDS]
        dg.ledger[L.MAX_OVERLAP] = 0.0
        for s in range(n_slots):
            v = dg.slots[s]
            for j in ti.static(range(SLOT_WIDTH)):
                dg.rec[row, slot_base + SLOT_WIDTH * s + j] = v[j]
            dg.slots[s] = ti.Vector([0.0] * SLOT_WIDTH)
    for j in ti.static(range(4)):
        dg.ledger[j] += dg.ledger[L.STEP + j]
        dg.ledger[L.LAST + j] = dg.ledger[L.STEP + j]
        dg.ledger[L.STEP + j] = 0.0


@ti.kernel
def advance_serial(md: ModelArgs, st: StateArgs, ct: ContactArgs, dg: DiagArgs, n_steps: ti.i32, step0: ti.i32,
                   dt: float, gx: float, gy: float, gz: float, skin: float, n_clusters: ti.i32,
                   n_clumps: ti.i32, n_walls: ti.i32, n_slots: ti.i32, record_every: ti.i32, rec_first: ti.i32,
                   clump_base: ti.i32, wall_base: ti.i32, slot_base: ti.i32, sleep_speed: float,
                   sleep_steps: ti.i32, pair_skin: float, implicit: ti.template()):
    """Run up to n_steps steps in one serial loop (CPU); counts[STEPS_DONE] tells how many ran."""
    gravity = ti.Vector([gx, gy, gz])
    ct.counts[STEPS_DONE] = 0
    ti.loop_config(serialize=True)
    for s in range(n_steps):
        if ct.counts[PAIR_STOP] == 0:
            pair_skin_exceeded(st, ct, n_clumps, pair_skin)
        if ct.counts[PAIR_STOP] == 0:  # otherwise the rest of the launch waits for the host's pair search
            n = step0 + s
            t = ti.cast(n, float) * dt  # n Δt: the same whatever the launches' lengths
            record = n % record_every == 0
            row = n // record_every - rec_first
            begin_step(st, ct, dg, n_clumps, n_walls, skin, record)
            if ct.counts[REBUILD_FLAG] == 1:
                for g in range(n_clusters):
                    rebuild_wall_candidates(g, md, st, ct, n_walls, skin)
            pair_contacts_serial(md, st, ct, dg, dt, n_walls, n_clumps, record, implicit)  # may wake bodies
            wall_contacts_serial(md, st, ct, dg, dt, n_walls, n_clumps, record, implicit)
            for c in range(n_clumps):
                integrate_clump(c, md, st, dg, dt, gravity, record, row, clump_base, sleep_speed, sleep_steps,
                                ct.counts[WALLS_MOVING])
            for w in range(n_walls):
                move_wall(w, md, st, dg, t, dt, record, row, wall_base)
            end_step(ct, dg, t, record, row, n_slots, slot_base)
            ct.counts[STEPS_DONE] += 1


@ti.kernel
def advance_parallel(md: ModelArgs, st: StateArgs, ct: ContactArgs, dg: DiagArgs, step0: ti.i32, dt: float,
                     gx: float, gy: float, gz: float, skin: float, n_hull: ti.i32, n_clumps: ti.i32,
                     n_walls: ti.i32, n_slots: ti.i32, record_every: ti.i32, rec_first: ti.i32,
                     clump_base: ti.i32, wall_base: ti.i32, slot_base: ti.i32, sleep_speed: float,
                     sleep_steps: ti.i32, pair_skin: float, implicit: ti.template()):
    """One step; each stage is a parallel loop (GPU backends). Nothing runs while counts[PAIR_STOP] is set."""
    gravity = ti.Vector([gx, gy, gz])
    record = step0 % record_every == 0
    row = step0 // record_every - rec_first
    t = ti.cast(step0, float) * dt
    for _ in range(1):
        if ct.counts[PAIR_STOP] == 0:
            pair_skin_exceeded(st, ct, n_clumps, pair_skin)
        if ct.counts[PAIR_STOP] == 0:
            begin_step(st, ct, dg, n_clumps, n_walls, skin, record)
    for idx in range(n_hull * n_walls):
        if ct.counts[PAIR_STOP] == 0 and ct.counts[REBUILD_FLAG] == 1:
            rebuild_wall_candidate_pair(idx, md, st, ct, n_walls, skin)
    for k in range(ct.counts[N_PAIRS]):
        if ct.counts[PAIR_STOP] == 0:
            pair_contact_parallel(k, md, st, ct, dg, dt, n_walls, n_clumps, record, implicit)
    for k in range(ct.counts[N_CAND]):
        if ct.counts[PAIR_STOP] == 0:
            wall_contact_parallel(k, md, st, ct, dg, dt, n_walls, n_clumps, record, implicit)
    for c in range(n_clumps):
        if ct.counts[PAIR_STOP] == 0:
            integrate_clump(c, md, st, dg, dt, gravity, record, row, clump_base, sleep_speed, sleep_steps,
                            ct.counts[WALLS_MOVING])
    for w in range(n_walls):
        if ct.counts[PAIR_STOP] == 0:
            move_wall(w, md, st, dg, t, dt, record, row, wall_base)
    for _ in range(1):
        if ct.counts[PAIR_STOP] == 0:
            end_step(ct, dg, t, record, row, n_slots, slot_base)
            ct.counts[STEPS_DONE] += 1


class Diagnostics:
    """Device arrays of the ledger, the probe slots and the record buffer (``capacity`` rows)."""

    def __init__(self, model: Model, capacity: int):
        real = runtime.real()
        self.layout = RecordLayout(model.clump_count, model.wall_count, model.slot_count)
        self.ledger = ti.ndarray(real, L.LEDGER_SIZE)
        self.slots = ti.ndarray(ti.types.vector(SLOT_WIDTH, real), max(model.slot_count, 1))
        self.capacity = int(capacity)
        self.rec = ti.ndarray(real, (self.capacity, self.layout.width))
        self.reset()

    def reset(self):
        self.ledger.fill(0.0)
        self.slots.fill(0.0)


class Simulation:
    """A model, its state and contacts, and the stepping loop.

    Args:
        model: the finalized model.
        dt: time step [s].
        record_every: steps between record rows (≥ 1).
        skin: Verlet skin of the wall candidate list [m] (default: SKIN_RADII × the smallest hull radius).
        pair_skin: skin of the body-pair list [m] (default: PAIR_SKIN_RADII × the smallest hull radius).
        parallel: force the per-step parallel launch (default: serial on CPU, parallel elsewhere).
        capacity: rows of the device record buffer (rows are fetched to the host when it is full).
        implicit_damping: apply the dashpots implicitly at mid-step (default; integrator.py) or explicitly
            with the velocities at t − Δt/2 as 004 does.
        sleep: let bodies at rest sleep (integrator.py); ``sleep_speed`` [m/s] and ``sleep_steps`` tune it.
    """

    def __init__(self, model: Model, *, dt: float, record_every: int = 1, skin: float | None = None,
                 pair_skin: float | None = None, parallel: bool | None = None, capacity: int = 2048,
                 implicit_damping: bool = True, sleep: bool = True, sleep_speed: float = 1e-8,
                 sleep_steps: int = 1000):
        if not (np.isfinite(dt) and dt > 0):
            raise ValueError(f"dt must be > 0 [s], got {dt}")
        if int(record_every) < 1:
            raise ValueError(f"record_every must be >= 1, got {record_every}")
        self.model = model
        self.dt = float(dt)
        self.record_every = int(record_every)
        self.skin = float(skin) if skin is not None else SKIN_RADII * model.min_radius
        if not self.skin > 0:
            raise ValueError(f"skin must be > 0 [m], got {skin}")
        self.pair_skin = float(pair_skin) if pair_skin is not None else PAIR_SKIN_RADII * model.min_radius
        if not self.pair_skin > 0:
            raise ValueError(f"pair_skin must be > 0 [m], got {pair_skin}")
        self.parallel = (not runtime.is_serial_backend()) if parallel is None else bool(parallel)
        self.implicit_damping = bool(implicit_damping)
        self.sleep_speed = float(sleep_speed) if sleep else 0.0
        self.sleep_steps = int(sleep_steps)
        self.state = State(model)
        self.contacts = Contacts(model)
        self.diag = Diagnostics(model, capacity)
        self.layout = self.diag.layout
        self._pack_cache = None
        self.pair_rebuilds = 0
        self.reset()

    def reset(self):
        self.state.reset()
        self.contacts.reset()
        self.invalidate_neighbours()
        self.diag.reset()
        self.rebuild_pairs()

    def invalidate_neighbours(self):
        """Ask for a candidate rebuild at the next step (call after editing poses by hand)."""
        # whole-array copy: on the Vulkan backend a single-element write is not ordered after a pending
        # device-side fill and can be lost
        counts = self.contacts.counts.to_numpy()
        counts[FORCE_REBUILD] = 1
        self.contacts.counts.from_numpy(counts)

    @property
    def uses_pairs(self) -> bool:
        return self.model.clump_count > 1

    def rebuild_pairs(self) -> None:
        """Host broad phase between bodies (pair_search.py): new candidate pairs with their carried-over
        shear history, motion bounds reset, stepping resumed."""
        if not self.uses_pairs:
            return
        c = self.contacts
        pos, rot = self.state.pos.to_numpy().astype(float), self.state.rot.to_numpy().astype(float)
        pairs = find_pairs(self.model, pos, rot, self.pair_skin)
        counts = c.counts.to_numpy()
        n_old = int(counts[N_PAIRS])
        old_hist = c.pair_hist.to_numpy()[:n_old].astype(float)
        keys = pairs[:, 0] * self.model.hull_count + pairs[:, 1]
        hist = carry_history(c.pair_keys, old_hist, keys)
        if c.ensure_pair_capacity(len(pairs)):
            self._pack_cache = None
        full_pairs = np.zeros((c.pair_capacity, 2), np.int32)
        full_pairs[: len(pairs)] = pairs
        full_hist = np.zeros((c.pair_capacity, 4), self.state._np())
        full_hist[: len(pairs)] = hist
        c.pairs.from_numpy(full_pairs)
        c.pair_hist.from_numpy(full_hist)
        c.pair_keys = keys
        counts[N_PAIRS] = len(pairs)
        counts[PAIR_STOP] = 0
        c.counts.from_numpy(counts)
        mon = self.state.monitor.to_numpy()
        mon[:, 6] = 0.0
        self.state.monitor.from_numpy(mon)
        self.pair_rebuilds += 1

    @property
    def time(self) -> float:
        return self.state.time

    def _packs(self):
        """Argument packs of the device arrays (built once: the arrays never change identity, except the
        pair arrays when they grow, which clears this cache)."""
        if self._pack_cache is None:
            self._pack_cache = self._make_packs()
        return self._pack_cache

    def _make_packs(self):
        m, s, c, d = self.model, self.state, self.contacts, self.diag
        md = ModelArgs(sph_body=m.sph_body, sph_info=m.sph_info, cluster_body=m.cluster_body,
                       cluster_range=m.cluster_range, clump_param=m.clump_param,
                       clump_inertia=m.clump_inertia, wall_frame=m.wall_frame,
                       wall_info=m.wall_info, wall_vel=m.wall_vel, mat_pair=m.mat_pair, iface_map=m.iface_map)
        st = StateArgs(pos=s.pos, quat=s.quat, rot=s.rot, vel=s.vel, omega=s.omega, force=s.force,
                       torque=s.torque, damp=s.damp, damp_other=s.damp_other, monitor=s.monitor,
                       wall_state=s.wall_state)
        ct = ContactArgs(cand=c.cand, hist=c.hist, counts=c.counts, pairs=c.pairs, pair_hist=c.pair_hist)
        dg = DiagArgs(ledger=d.ledger, slots=d.slots, rec=d.rec)
        return md, st, ct, dg

    def _rows_in(self, n0: int, n: int) -> int:
        """Record steps among steps n0 .. n0+n−1."""
        r = self.record_every
        return (n0 + n - 1) // r - (n0 - 1) // r if n > 0 else 0

    def compile(self) -> None:
        """Compile (or load from Taichi's cache) the step kernel without taking a step."""
        self._launch(0, self.state.step)

    # parallel launches between two looks at the step counter (each look is a device sync)
    PARALLEL_BATCH = 64

    def _launch(self, n: int, n0: int) -> tuple[int, bool]:
        """Run up to n steps from step n0; returns (steps done, pair search needed)."""
        m, g, lay = self.model, self.model.gravity, self.layout
        md, st, ct, dg = self._packs()
        first_row = -(-n0 // self.record_every)
        pair_skin = self.pair_skin if self.uses_pairs else 0.0
        common = (self.dt, g[0], g[1], g[2], self.skin, m.cluster_count, m.clump_count, m.wall_count, m.slot_count,
                  self.record_every, first_row, lay.clump_base, lay.wall_base, lay.slot_base, self.sleep_speed,
                  self.sleep_steps, pair_skin, self.implicit_damping)
        if self.parallel:
            if n == 0:
                return 0, False  # compiled at the first step
            par = (common[0], *common[1:5], m.hull_count, *common[6:])
            done = 0
            counts = self.contacts.counts.to_numpy()
            counts[STEPS_DONE] = 0
            self.contacts.counts.from_numpy(counts)
            while done < n:
                batch = min(self.PARALLEL_BATCH, n - done)
                for s in range(batch):
                    advance_parallel(md, st, ct, dg, n0 + done + s, *par)
                counts = self.contacts.counts.to_numpy()
                done = int(counts[STEPS_DONE])
                if counts[PAIR_STOP]:
                    return done, True
            return done, False
        advance_serial(md, st, ct, dg, n, n0, *common)
        if n == 0:
            return 0, False
        counts = self.contacts.counts.to_numpy()
        return int(counts[STEPS_DONE]), bool(counts[PAIR_STOP])

    def quiescent(self) -> bool:
        """True when every body sleeps and no wall moves from now on: every later step is then the same
        as the last (sleeping bodies do not move, their contacts give the same forces), see
        :meth:`fast_forward`."""
        if not self.sleep_speed > 0:
            return False
        if not np.all(self.state.monitor.to_numpy()[:, 5] > 0.5):
            return False
        t = self.state.time
        for w in self.model.walls:
            if w.motion is not None:
                v = w.motion.velocity
                k = max(int(np.floor(t / w.motion.dt)) - 1, 0)
                if np.any(v[k:] != 0.0):
                    return False
        return True

    def fast_forward(self, n_steps: int, last_row: np.ndarray) -> np.ndarray:
        """Skip n_steps of a quiescent system (:meth:`quiescent`): the record rows it would write are
        `last_row` with their own times. Exact, not an approximation: nothing changes while all sleep."""
        n0 = self.state.step
        first = -(-n0 // self.record_every)
        last = (n0 + n_steps - 1) // self.record_every
        rows = np.repeat(np.asarray(last_row, float)[None, :], max(last - first + 1, 0), axis=0)
        rows[:, 0] = np.arange(first, last + 1) * self.record_every * self.dt
        self.state.step += n_steps
        self.state.time = self.state.step * self.dt
        return rows

    def advance(self, n_steps: int) -> np.ndarray:
        """Take n_steps steps; return the record rows written meanwhile, shape (rows, layout.width)."""
        out = []
        lay = self.layout
        while n_steps > 0:
            n0 = self.state.step
            # steps that fit in the buffer: the record rows of this launch are ≤ capacity
            first_row = -(-n0 // self.record_every)  # index of the first record step ≥ n0
            max_steps = (first_row + self.diag.capacity) * self.record_every - n0
            n = min(n_steps, max_steps)
            done, need_pairs = self._launch(n, n0)
            rows = self._rows_in(n0, done)
            if rows:
                out.append(self.diag.rec.to_numpy()[:rows].astype(np.float64))
            self.state.step += done
            self.state.time = self.state.step * self.dt
            n_steps -= done
            if need_pairs:
                self.rebuild_pairs()
        if not out:
            return np.zeros((0, lay.width))
        return np.concatenate(out)

    # checkpoints (dem/checkpoint.py): generic over the attributes of state, contacts and diag
    def checkpoint_arrays(self) -> dict:
        """Host copies of every device array and plain value of the state, contacts and diagnostics, and
        the Simulation's own counters (dem.checkpoint.gather)."""
        from .checkpoint import gather

        return gather(self)

    def restore_arrays(self, saved: dict) -> None:
        """Put back what :meth:`checkpoint_arrays` returned; arrays that had grown are re-created."""
        from .checkpoint import scatter

        scatter(self, saved)
        self._pack_cache = None
