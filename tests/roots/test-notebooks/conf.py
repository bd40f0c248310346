extensions = ["sphinx_playbook", "myst_nb"]
html_theme = "sphinx_playbook"
project = "Notebooks"
copyright = "2026, The authors"
numfig = True
nb_execution_mode = "off"
playbook_bibfiles = ["refs.bib"]
exclude_patterns = ["_build", "jupyter_execute"]
