"""Broad phase between bodies, on the host: which hull spheres of different clumps are within the pair
skin of each other, or of the other body's solid. Bounding spheres of the body-frame clusters are paired first
(a k-d tree over the cluster centres), then the spheres of each close cluster pair are tested, all vectorised.
Two bodies of which one or both have a solid (joints "solid", dem.model.contact_solid) meet through it instead: each
hull sphere within the skin of the other body's solid is an entry (pair_entry.py), found by body bounding spheres and
the solid's signed distance, unless it would take no share of the stiffness at any pose the two bodies reach before
the next search (the larger face's spheres of a joint, the second body's of two faces of one size); each with a hint
for the step: a face of the solid that stays the closest feature of a sphere that carries the joint whole, or none
(dem.model.contact_solid.classify_entries; docs/joints.md, "Cost").

The shear history of entries still in the list is carried over by key (:func:`entry_keys`); entries that left the
list were farther apart than the skin, so their contact was open and they have no history.
"""

import numpy as np
from scipy.spatial import cKDTree

from ..model.contact_solid import GENERAL, IDLE, classify_entries
from ..model.solid_table import SolidTable


def find_pairs(model, pos: np.ndarray, rot: np.ndarray, skin: float, bodies: np.ndarray | None = None) -> np.ndarray:
    """Candidate entries (p, q, hint) of the body-pair list within `skin` [m] of touching (pair_entry.py: hull
    spheres ≥ 0, a clump's solid −1 − clump; world-local; the hint: dem.model.contact_solid.classify_entries, GENERAL
    for a sphere pair), body(p) < body(q), sorted by (body(p), body(q), p, q). Shape (n, 3), int64. `bodies`: a mask
    (clump_count,) of the bodies whose pairs are searched (the pairs of which one body is in it; default: all)."""
    solid = np.array([s is not None for s in model.contact_solids], bool)
    if not solid.any():
        return _of_bodies(model, _with_hints(_sphere_pairs(model, pos, rot, skin)), bodies)
    spheres = np.zeros((0, 2), np.int64)
    if np.count_nonzero(~solid) >= 2:  # sphere pairs only between two bodies without a solid
        spheres = _sphere_pairs(model, pos, rot, skin)
        info = model.sph_info_np[:, 0].astype(np.int64)
        spheres = spheres[~(solid[info[spheres[:, 0]]] | solid[info[spheres[:, 1]]])]
    out = np.concatenate([_of_bodies(model, _with_hints(spheres), bodies),
                          _solid_entries(model, pos, rot, skin, bodies)])
    return sort_entries(model, out)


def sort_entries(model, entries: np.ndarray) -> np.ndarray:
    """The entries (n, ≥ 2) in the body-pair list's order: by (body(p), body(q), p, q)."""
    a, b = entry_bodies(model, entries)
    return entries[np.lexsort((entries[:, 1], entries[:, 0], b, a))]


def _of_bodies(model, entries: np.ndarray, bodies: np.ndarray | None) -> np.ndarray:
    """The entries (n, ≥ 2) of which a body is in the mask `bodies` (None: all)."""
    if bodies is None:
        return entries
    a, b = entry_bodies(model, entries)
    return entries[bodies[a] | bodies[b]]


def _with_hints(pairs: np.ndarray) -> np.ndarray:
    """Sphere pairs (n, 2) with their hint, GENERAL: (n, 3)."""
    return np.column_stack([pairs, np.full(len(pairs), GENERAL, np.int64)])


def entry_bodies(model, entries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two clumps (world-local) of each entry (p, q) (pair_entry.py)."""
    info = model.sph_info_np[:, 0].astype(np.int64)
    p, q = entries[:, 0], entries[:, 1]
    return (np.where(p >= 0, info[np.maximum(p, 0)], -1 - p), np.where(q >= 0, info[np.maximum(q, 0)], -1 - q))


def entry_keys(model, entries: np.ndarray) -> np.ndarray:
    """A unique integer per entry (p, q): a side ≥ 0 is a hull sphere, < 0 the solid of clump −1 − side, numbered
    after the hull spheres."""
    n = model.hull_count + model.clump_count
    side = lambda x: np.where(x >= 0, x, model.hull_count - 1 - x)  # noqa: E731
    return side(entries[:, 0].astype(np.int64)) * n + side(entries[:, 1].astype(np.int64))


def _solid_entries(model, pos: np.ndarray, rot: np.ndarray, skin: float, bodies: np.ndarray | None) -> np.ndarray:
    """Entries (i, −1 − b, hint) and (−1 − a, j, hint) of hull spheres within `skin` of another body's solid, for
    every two bodies a < b of which one has a solid (and one is in the mask `bodies`, if given) and whose bounding
    spheres come within the skin, but for the idle ones (classify_entries). Every side (one body's spheres against
    the other's solid) of every such pair is measured and classified at once: the sides' clusters, then their
    spheres, are brought into the frame of their solid's template as rows of the same arrays, and the solids' table
    (dem.model.solid_table) answers each query for all of them, a few NumPy calls a search whatever the number of
    bodies and solids."""
    n = model.clump_count
    solids = model.contact_solids
    a, b = np.triu_indices(n, 1)
    near = np.linalg.norm(pos[a] - pos[b], axis=1) < model.bound_radius[a] + model.bound_radius[b] + skin
    has = np.array([s is not None for s in solids])
    if bodies is not None:
        near &= bodies[a] | bodies[b]
    a, b = a[near], b[near]
    sph, sol = np.concatenate([a, b]), np.concatenate([b, a])  # each side: sph's spheres against sol's solid
    sph, sol = sph[has[sol]], sol[has[sol]]
    table, centre, own = _solids_of(model)
    body, r = model.sph_body_np[:, :3], model.sph_body_np[:, 3]
    cb, cr = model.cluster_body_np, model.cluster_range_np
    first_cluster = np.searchsorted(cr[:, 2], np.arange(n + 1))
    # only spheres near a part's box can come within the skin of it (the distance to the box is no more than the
    # part's), and only spheres of clusters that are (a cluster's ball of radius R_c about c holds its spheres: the
    # box distance of c less R_c is no more than that of a sphere's centre less its radius)
    count = first_cluster[sph + 1] - first_cluster[sph]
    side = np.repeat(np.arange(len(sph)), count)
    g = np.repeat(first_cluster[sph] - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
    _w, local_c = _to_solid(pos, rot, centre, sph[side], sol[side], cb[g, :3])
    close_c = table.least_box_distance(local_c, sol[side]) - cb[g, 3] < skin
    g, side = g[close_c], side[close_c]
    idx = _cluster_spheres(cr, g)
    side = np.repeat(side, cr[g, 1].astype(np.int64))
    world, local = _to_solid(pos, rot, centre, sph[side], sol[side], body[idx])
    close = table.least_box_distance(local, sol[side]) - r[idx] < skin
    idx, side, local, world = idx[close], side[close], local[close], world[close]
    e_sph, e_sol = sph[side], sol[side]
    nearest = table.nearest_parts(local, e_sol)
    keep = nearest[0] - r[idx] < skin
    idx, local, e_sph, e_sol, world = idx[keep], local[keep], e_sph[keep], e_sol[keep], world[keep]
    nearest = tuple(v[keep] for v in nearest)
    dist = np.linalg.norm(world - pos[e_sol], axis=1)
    to_own = np.einsum("nji,njk->nik", rot[e_sol], rot[e_sph])  # rotᵀ own_rot of each entry's two bodies
    first = e_sph < e_sol  # the sphere's body is the lower index
    hint = classify_entries(table, own[e_sph], e_sol, local, nearest, dist, to_own, model.bound_radius[e_sph],
                            model.bound_radius[e_sol], first, skin)
    use = hint != IDLE
    idx, tag, hint, first = idx[use], -1 - e_sol[use], hint[use], first[use]
    return np.column_stack([np.where(first, idx, tag), np.where(first, tag, idx), hint]).astype(np.int64)


def _solids_of(model):
    """The model's solids as one table (dem.model.solid_table; row c: clump c's, empty without one), each clump's
    centre of mass in its template frame (n, 3) [m] and the table row of each clump's solid (−1: none); made once
    and kept on the model."""
    out = getattr(model, "_solid_table", None)
    if out is None:
        solids = model.contact_solids
        table = SolidTable(solids)
        out = (table, np.array([c.mass_props.center for c in model.clumps], float).reshape(-1, 3),
               np.where(table.nparts > 0, np.arange(len(solids)), -1))
        model._solid_table = out
    return out


def _to_solid(pos, rot, centre, sph, sol, x):
    """Points x (n, 3) [m] of body sph[i]'s frame: in the world, and in the template frame of body sol[i] (its
    solid's)."""
    world = pos[sph] + np.einsum("nij,nj->ni", rot[sph], x)
    return world, np.einsum("nj,nji->ni", world - pos[sol], rot[sol]) + centre[sol]


def _sphere_pairs(model, pos: np.ndarray, rot: np.ndarray, skin: float) -> np.ndarray:
    """Pairs (i, j), clump(i) < clump(j), of hull spheres within `skin` [m] of touching, sorted by
    (clump(i), clump(j), i, j). Shape (n, 2), int64."""
    cb, cr = model.cluster_body_np, model.cluster_range_np
    cc = cr[:, 2]
    centers = pos[cc] + np.einsum("gij,gj->gi", rot[cc], cb[:, :3])
    rad = cb[:, 3]
    tree = cKDTree(centers)
    gp = tree.query_pairs(2.0 * float(rad.max()) + skin, output_type="ndarray")
    if len(gp) == 0:
        return np.zeros((0, 2), np.int64)
    g, h = gp[:, 0], gp[:, 1]
    keep = (cc[g] != cc[h]) & (np.linalg.norm(centers[g] - centers[h], axis=1) < rad[g] + rad[h] + skin)
    g, h = g[keep], h[keep]
    if len(g) == 0:
        return np.zeros((0, 2), np.int64)
    body, r = model.sph_body_np[:, :3], model.sph_body_np[:, 3]
    # per pair of bodies A < B: the spheres of A's close clusters against those of B's, by two k-d trees
    # (on a pier–deck interface the cluster-by-cluster cross product tests 250 times more sphere pairs
    # than end up in the list, and took 5 times longer)
    swap = cc[g] > cc[h]
    g, h = np.where(swap, h, g), np.where(swap, g, h)
    body_pair = cc[g].astype(np.int64) * model.clump_count + cc[h]
    order = np.argsort(body_pair, kind="stable")
    g, h, body_pair = g[order], h[order], body_pair[order]
    cuts = np.flatnonzero(np.diff(body_pair)) + 1
    out_i, out_j = [], []
    for gs, hs in zip(np.split(g, cuts), np.split(h, cuts)):
        a, b = cc[gs[0]], cc[hs[0]]
        sa, sb = _cluster_spheres(cr, np.unique(gs)), _cluster_spheres(cr, np.unique(hs))
        xa, xb = pos[a] + body[sa] @ rot[a].T, pos[b] + body[sb] @ rot[b].T
        reach = float(r[sa].max() + r[sb].max()) + skin
        d = cKDTree(xa).sparse_distance_matrix(cKDTree(xb), reach, output_type="ndarray")
        i, j = sa[d["i"]], sb[d["j"]]
        near = d["v"] - r[i] - r[j] < skin
        out_i.append(i[near])
        out_j.append(j[near])
    i, j = np.concatenate(out_i), np.concatenate(out_j)
    ci, cj = model.sph_info_np[i, 0], model.sph_info_np[j, 0]
    order = np.lexsort((j, i, cj, ci))
    return np.column_stack([i[order], j[order]]).astype(np.int64)


def hull_clusters(model) -> np.ndarray:
    """Cluster (world-local index) of each hull sphere of `model`, shape (n_h,) (cached on the model)."""
    out = getattr(model, "_hull_clusters", None)
    if out is None:
        cr = model.cluster_range_np
        out = np.repeat(np.arange(len(cr)), cr[:, 1])
        model._hull_clusters = out
    return out


def entry_clusters(model, entries: np.ndarray) -> np.ndarray:
    """The clusters (g, h) of each entry (p, q), world-local: a hull sphere's own, a solid's its clump's first (the
    device search's order, pair_search_device.py). Shape (n, 2)."""
    first = np.searchsorted(model.cluster_range_np[:, 2], np.arange(model.clump_count))
    hc = hull_clusters(model)
    return np.column_stack([np.where(x >= 0, hc[np.maximum(x, 0)], first[-1 - np.minimum(x, -1)])
                            for x in (entries[:, 0], entries[:, 1])]).astype(np.int64)


def _cluster_spheres(cr: np.ndarray, clusters: np.ndarray) -> np.ndarray:
    """Hull sphere indices of the given clusters (rows of cluster_range: start, count, clump)."""
    start, count = cr[clusters, 0].astype(np.int64), cr[clusters, 1].astype(np.int64)
    return np.repeat(start - np.cumsum(count) + count, count) + np.arange(int(count.sum()))


def carry_history(old_keys: np.ndarray, old_hist: np.ndarray, new_keys: np.ndarray) -> np.ndarray:
    """History rows for `new_keys`, taken from the old list where the pair was already there (else 0)."""
    out = np.zeros((len(new_keys), old_hist.shape[1]))
    if len(old_keys) == 0 or len(new_keys) == 0:
        return out
    order = np.argsort(old_keys)
    sk = old_keys[order]
    pos = np.searchsorted(sk, new_keys)
    pos = np.minimum(pos, len(sk) - 1)
    found = sk[pos] == new_keys
    out[found] = old_hist[order[pos[found]]]
    return out
