"""The model layer: what is simulated, on the host (NumPy), before any device array exists.

Bodies as clumps of spheres (:mod:`.clump`, :mod:`.box_clump`; from mesh files, :mod:`.mesh_clump`), materials
and the contact laws' parameters (:mod:`.materials`), assemblies of blocks (:mod:`.assembly`: stacks and
columns; :mod:`.arch`; :mod:`.masonry_wall`), walls (:mod:`.walls`) and the base motion that moves them
(:mod:`.base_motion`, with PEER ``.AT2`` files in :mod:`.at2`), the :class:`~.model.Model` and its builder
(:mod:`.model`), bodies put one on another (:mod:`.placement`), sizes before allocation (:mod:`.sizing`), the
critical time step (:mod:`.timestep`) and the bodies' overlaps at t = 0 (:mod:`.initial_overlaps`). Imports
nothing else of dem.
"""
