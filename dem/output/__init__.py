"""The output layer: what a run writes and how it is read back.

Atomic files, CSV and strict JSON (:mod:`.files`), the history and its columns (:mod:`.history`,
:mod:`.columns`), the headline numbers (:mod:`.headline`), ParaView frames (:mod:`.snapshot`,
:mod:`.paraview`, :mod:`.vtu`), plots and pictures (:mod:`.plots`, :mod:`.render`) and an output folder read
back (:mod:`.results`). Imports the layers below it (model, device, physics).
"""
