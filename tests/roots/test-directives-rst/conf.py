extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Directives"
copyright = "2025, The authors"
version = "1.0"
numfig = True
numfig_format = {"figure": "Figure %s"}
