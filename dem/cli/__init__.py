"""The command line, one module per subcommand family: ``dem run|scenes|plot|...`` (:mod:`.main`),
``dem compile`` (:mod:`.compile`), ``dem sweep`` (:mod:`.sweep`), ``dem fragility`` (:mod:`.fragility`),
``dem records`` (:mod:`.records`), ``dem validate`` (:mod:`.validate`). The top layer: nothing in dem imports it.
"""
