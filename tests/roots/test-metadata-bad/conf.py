extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Bad metadata"
