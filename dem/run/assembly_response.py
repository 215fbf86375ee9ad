"""The response of an assembly of blocks (a column of drums, a stack: dem.model.assembly) as one result row:
what a sweep's results table (dem.sweep.engines) and a batch's worlds.csv (dem.run.worlds) report for a
scene that declares ``info['assembly']`` (:func:`assembly_info`) and ``info['alpha_rad']``.

Columns: those of dem.run.response (RESPONSE_COLUMNS), read over every block, and the assembly's own:
- ``peak_theta_over_alpha`` [-]: the largest |θ| of any block ÷ α, α the slenderness of the assembly as one
  rigid body (``info['alpha_rad']``; a column: atan(R/z_G), R the foot's radius, z_G the height of the
  centre of mass); +inf when it fell;
- ``overturned``, ``overturn_time_s``: some block's |θ| reached θ_ov (the angle of dem.run.response, from
  the same α): the column fell, or a drum fell off it; ``fell_body``: the first such block ('' if none);
- ``residual_theta_over_alpha`` [-]: θ/α at the end of the run of the block then the most tilted;
- ``max_slip_m``, ``max_uplift_m`` [m]: of the foot block on its base, before any block fell
  (dem.run.response.dem_response with the foot as the rocking body: its pivot's slip less rolling, and
  the rise of its raised rim);
- ``residual_dislocation_m`` [m]: the largest |horizontal offset| left at the end of the run, along the
  shaking, between the two faces of a joint — the centre of a block's bottom face against the point of the
  face under it that it stood on at the start (the top face of the block below, or the base: the table's
  displacement) — each point carried by its block's displacement and rotation, less the shift of the face
  centre of a block that stands turned by Δθ on its rim (R (1 − cos Δθ), R the joint's half-width): a
  block left leaning on its rim is not read as dislocated (exact over a level face; over a face tilted by
  θ_below the error is of order offset × θ_below²); ``residual_dislocation_joint``: that joint's name;
  NaN and '' if it fell;
- ``residual_rotation_deg`` [deg]: the largest |θ| of any block at the end (the tilt left); and
  ``residual_joint_rotation_deg`` [deg]: the largest |θ_k − θ_(k−1)| at the end (a joint left open, or a
  block wedged); NaN if it fell.

"At the end" is the last history row: the run should end some seconds after the shaking (a sweep adds 5 s
after the longest record) for it to be a rest position.
The rotations are the probes' rotations about the horizontal axis normal to the shaking (the plane of the
motion: dem.run.probes.RockingAngle); a drum rotating out of that plane is not measured.
"""

from __future__ import annotations

import math

import numpy as np

from .response import default_overturn_angle, dem_response, empty_response

ASSEMBLY_COLUMNS = ("fell_body", "residual_dislocation_m", "residual_dislocation_joint", "residual_rotation_deg",
                    "residual_joint_rotation_deg")
"""The columns an assembly adds to dem.run.response.RESPONSE_COLUMNS (module docstring)."""


def assembly_info(model, assembly, *, horizontal=(1.0, 0.0, 0.0), ground_disp: str | None, foot: dict) -> dict:
    """``info['assembly']`` of a scene: each block's history columns (the names dem.run.assembly_probes
    gives: ``<block>_theta_deg``, ``<block>_ux``) and the vectors from its centre of mass to the centres of
    its bottom and top faces at t = 0, as (along `horizontal`, vertical) [m]; the joints' names (joint k
    under block k); ``ground_disp``: the history column of the base's horizontal displacement [m] (None: a
    base that does not move); ``foot``: the foot block as a rocking body (dem.scenes.tools.rocking_body)
    for its slip and uplift."""
    h = np.asarray(horizontal, float)
    h = h / np.linalg.norm(h)
    pos = [np.asarray(model.clumps[c].position, float) for c in assembly.bodies]
    joints = {j.upper: j for j in assembly.joints}
    faces = []  # world centre of the bottom face of each block at t = 0
    for k, c in enumerate(assembly.bodies):
        j = joints.get(c)
        faces.append(pos[k] + np.asarray(j.center_body, float) if j is not None else None)
    blocks = []
    for k, (c, name) in enumerate(zip(assembly.bodies, assembly.body_names)):
        bottom = faces[k] - pos[k] if faces[k] is not None else None
        top = faces[k + 1] - pos[k] if k + 1 < len(faces) and faces[k + 1] is not None else None
        blocks.append({"name": name, "theta_deg": f"{name}_theta_deg", "ux": f"{name}_ux",
                       "bottom": None if bottom is None else [float(bottom @ h), float(bottom[2])],
                       "top": None if top is None else [float(top @ h), float(top[2])],
                       "joint": joints[c].name if c in joints else None,
                       "half_width": float(joints[c].width) / 2 if c in joints else None})
    return {"blocks": blocks, "ground_disp": ground_disp, "foot": foot}


def _face_x(ux: np.ndarray, theta: np.ndarray, r) -> np.ndarray:
    """Horizontal displacement [m] of a body point at (r_h, r_z) from the centre of mass at t = 0: the centre's
    displacement plus the point's turn by θ about the rocking axis (x' = r_h cos θ + r_z sin θ,
    dem.run.probes.RockingAngle's sign)."""
    return ux + r[0] * (np.cos(theta) - 1.0) + r[1] * np.sin(theta)


def assembly_response(history: dict, info: dict, overturn_angle: float | None = None,
                      energy_error: float = math.nan) -> dict:
    """The row of module docstring from a run's history columns and the scene's ``info['assembly']`` and
    ``info['alpha_rad']``; ``overturn_angle`` [rad] (None: dem.run.response.default_overturn_angle(α))."""
    asm, alpha = info["assembly"], float(info["alpha_rad"])
    angle = default_overturn_angle(alpha) if overturn_angle is None else float(overturn_angle)
    out = empty_response() | {"fell_body": "", "residual_dislocation_m": math.nan, "residual_dislocation_joint": "",
                              "residual_rotation_deg": math.nan, "residual_joint_rotation_deg": math.nan}
    out["energy_error"] = float(energy_error)
    t = np.asarray(history["t"], float)
    if t.size == 0:
        return out
    blocks = asm["blocks"]
    th = np.radians(np.stack([np.asarray(history[b["theta_deg"]], float) for b in blocks]))  # (blocks, rows)
    past = ~(np.abs(th) < angle)  # NaN counts: a block gone numerically
    first = t.size
    for k in range(len(blocks)):
        hit = np.flatnonzero(past[k])
        if hit.size and hit[0] < first:
            first, out["fell_body"] = int(hit[0]), blocks[k]["name"]
    fell = first < t.size
    foot = {k: np.asarray(v)[:max(first, 1)] for k, v in history.items() if k == "t" or k in _foot_columns(asm)}
    one = dem_response(foot, {"alpha_rad": alpha, "rocking_bodies": [asm["foot"]]}, angle, energy_error)
    out["max_slip_m"], out["max_uplift_m"] = one["max_slip_m"], one["max_uplift_m"]
    out["overturned"] = bool(fell)
    if fell:
        out["overturn_time_s"] = float(t[first])
        out["peak_theta_over_alpha"] = math.inf
        return out
    out["peak_theta_over_alpha"] = float(np.max(np.abs(th))) / alpha
    end = th[:, -1]
    out["residual_theta_over_alpha"] = float(end[int(np.argmax(np.abs(end)))]) / alpha
    out["residual_rotation_deg"] = float(np.degrees(np.max(np.abs(end))))
    out["residual_joint_rotation_deg"] = float(np.degrees(np.max(np.abs(np.diff(np.r_[0.0, end])))))  # base level
    worst, where = -1.0, ""
    for k, b in enumerate(blocks):
        if b["bottom"] is None:
            continue
        upper = _face_x(np.asarray(history[b["ux"]], float)[-1], th[k, -1], b["bottom"])
        if k == 0:
            g = asm.get("ground_disp")
            lower = 0.0 if g is None else float(np.asarray(history[g], float)[-1])
        else:
            below = blocks[k - 1]
            lower = _face_x(np.asarray(history[below["ux"]], float)[-1], th[k - 1, -1], below["top"])
        # less the shift of the face centre when the block stands turned by Δθ on its rim over the face below
        # (R (1 − cos Δθ) towards the rim it leans to): no slip, not a dislocation
        turn = float(th[k, -1] - (th[k - 1, -1] if k else 0.0))
        d = abs(float(upper - lower) - math.copysign(b["half_width"] * (1.0 - math.cos(turn)), turn))
        if d > worst:
            worst, where = d, b["joint"] or b["name"]
    if worst >= 0.0:
        out["residual_dislocation_m"], out["residual_dislocation_joint"] = worst, where
    return out


def _foot_columns(asm: dict) -> set:
    f = asm["foot"]
    return {f["theta_deg"], f["ux"], f["uz"], f.get("ground_disp") or "t"}
