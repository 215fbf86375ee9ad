"""Scenes: short scripts that build a model from named parameters (:mod:`.scene`), and the helpers they
share (:mod:`.tools`: shaking tables, record motions). The scene scripts themselves are in the repository's
``scenes/`` folder. Imports :mod:`dem.model` and :mod:`dem.records`.
"""
