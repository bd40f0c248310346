extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Paper with what LaTeX cannot take"
latex_theme = "howto"
