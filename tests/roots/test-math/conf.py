extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Math"
copyright = "2025, The authors"
version = "1.0"
playbook_math_macros = {"\\RR": "\\mathbb{R}"}
