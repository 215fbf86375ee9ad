"""The run layer: driving a Simulation from a scene to an output folder.

The driver (:mod:`.driver`: checks, the stepping loop, outputs), batches of worlds (:mod:`.worlds`),
checkpoints (:mod:`.checkpoint`), events, instability and probes read from the history rows
(:mod:`.events`, :mod:`.instability`, :mod:`.probes`), the per-run result row (:mod:`.response`), signals
(:mod:`.interrupts`), the output folder's lock (:mod:`.lock`), checks before the first step
(:mod:`.preflight`) and compiling ahead (:mod:`.precompile`). Imports every layer below it.
"""
