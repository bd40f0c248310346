extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Citations"
copyright = "2025, The authors"
version = "1.0"
playbook_bibfiles = ["references.bib"]
