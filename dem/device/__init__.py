"""The device layer: the kernel language and its runtime, and the engine's packed device arrays.

The toolchain (:mod:`.kernel_lang`: Taichi or quadrants; :mod:`.runtime`: backend and precision;
:mod:`.startup`: the compile-or-load notice), the named slots of the packed arrays (:mod:`.layout`,
:mod:`.damping_layout`), and the arrays themselves: the models of W worlds (:mod:`.model_arrays`), per-step
state (:mod:`.state`), contact candidates and history (:mod:`.contacts`), and the argument packs the kernels
take (:mod:`.kernel_args`); the memory a backend has free (:mod:`.free_memory`). Imports only :mod:`dem.model`.
"""
