extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Reader"
copyright = "2026, The authors"
numfig = True
exclude_patterns = ["_build"]
