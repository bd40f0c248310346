extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Appendix (reST)"
copyright = "2025, The authors"
version = "1.0"
playbook_license = "Some Custom Licence 1.0"
