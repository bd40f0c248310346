extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Interactive"
copyright = "2026, The authors"
numfig = True
numfig_format = {"figure": "Figure %s"}
exclude_patterns = ["_build"]
