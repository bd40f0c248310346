extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Article (reST)"
copyright = "2025, The authors"
version = "1.0"
