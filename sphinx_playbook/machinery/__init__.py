"""The build machinery: what our pages depend on, caches, worker processes.

Everything here goes through Sphinx's public events and APIs; each module's
docstring names the ones it uses.
"""
