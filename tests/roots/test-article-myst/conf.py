extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Article (MyST)"
myst_enable_extensions = ["attrs_block"]
copyright = "2025, The authors"
version = "1.0"
