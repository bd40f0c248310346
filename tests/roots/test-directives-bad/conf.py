extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Bad directives"
copyright = "2025, The authors"
version = "1.0"
