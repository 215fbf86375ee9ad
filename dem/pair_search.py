"""Broad phase between bodies, on the host: which hull spheres of different clumps are within the pair
skin of each other. Bounding spheres of the body-frame clusters are paired first (a k-d tree over the
cluster centres), then the spheres of each close cluster pair are tested, all vectorised.

The shear history of pairs still in the list is carried over by key (i·n_h + j); pairs that left the list
were farther apart than the skin, so their contact was open and they have no history.
"""

import numpy as np
from scipy.spatial import cKDTree


def world_hull_spheres(model, pos: np.ndarray, rot: np.ndarray) -> np.ndarray:
    """World centres [m] of all hull spheres in device order."""
    out = np.empty((model.hull_count, 3))
    for c in range(model.clump_count):
        s = slice(model.hull_start[c], model.hull_start[c + 1])
        out[s] = pos[c] + model.sph_body_np[s, :3] @ rot[c].T
    return out


def find_pairs(model, pos: np.ndarray, rot: np.ndarray, skin: float) -> np.ndarray:
    """Candidate pairs (i, j), clump(i) < clump(j), of hull spheres within `skin` [m] of touching, sorted by
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
    # every sphere of cluster g against every sphere of cluster h
    ng, nh = cr[g, 1].astype(np.int64), cr[h, 1].astype(np.int64)
    count = ng * nh
    which = np.repeat(np.arange(len(g)), count)
    local = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    i = cr[g, 0][which] + local // nh[which]
    j = cr[h, 0][which] + local % nh[which]
    x = world_hull_spheres(model, pos, rot)
    r = model.sph_body_np[:, 3]
    near = np.linalg.norm(x[i] - x[j], axis=1) - r[i] - r[j] < skin
    i, j = i[near], j[near]
    ci, cj = model.sph_info_np[i, 0], model.sph_info_np[j, 0]
    swap = ci > cj
    i, j = np.where(swap, j, i), np.where(swap, i, j)
    ci, cj = np.minimum(ci, cj), np.maximum(ci, cj)
    order = np.lexsort((j, i, cj, ci))
    return np.column_stack([i[order], j[order]]).astype(np.int64)


def carry_history(old_keys: np.ndarray, old_hist: np.ndarray, new_keys: np.ndarray) -> np.ndarray:
    """History rows for `new_keys`, taken from the old list where the pair was already there (else 0)."""
    out = np.zeros((len(new_keys), old_hist.shape[1] if old_hist.ndim == 2 else 4))
    if len(old_keys) == 0 or len(new_keys) == 0:
        return out
    order = np.argsort(old_keys)
    sk = old_keys[order]
    pos = np.searchsorted(sk, new_keys)
    pos = np.minimum(pos, len(sk) - 1)
    found = sk[pos] == new_keys
    out[found] = old_hist[order[pos[found]]]
    return out
