"""Broad phase between bodies, on the host: which hull spheres of different clumps are within the pair
skin of each other. Bounding spheres of the body-frame clusters are paired first (a k-d tree over the
cluster centres), then the spheres of each close cluster pair are tested, all vectorised.

The shear history of pairs still in the list is carried over by key (i·n_h + j); pairs that left the list
were farther apart than the skin, so their contact was open and they have no history.
"""

import numpy as np
from scipy.spatial import cKDTree


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
