"""The physics layer: the time step as stages, and :class:`~.simulation.Simulation`, which launches it.

Contact force laws as pure functions (:mod:`.contact_law`), the contact pipeline — the narrow phase of each kind
of contact (:mod:`.contact_geometry`), one response for all (:mod:`.contact_response`), what the loops add up
(:mod:`.contact_sums`) — and the ball-wall and ball-ball stages (:mod:`.wall_contact`, :mod:`.pair_contact`), the
shared dashpot mass (:mod:`.interface_stiffness`; its host reference in :mod:`.contact_law`), the law of motion
(:mod:`.integrator`, :mod:`.rotation`, :mod:`.small_linalg`), the broad phase (:mod:`.pair_search` on the host,
:mod:`.pair_search_device` on the block path), the energy ledger (:mod:`.ledger`) and the history stage
(:mod:`.history_rows`), the step of one world and the serial launch (:mod:`.step`), the block launch
(:mod:`.step_blocks`), the memory a batch's arrays take and its check (:mod:`.batch_memory`) and the stepping loop
(:mod:`.simulation`).
Imports :mod:`dem.model` and :mod:`dem.device`.
"""
