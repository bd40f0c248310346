extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Reference previews"
copyright = "2025, The authors"
version = "1.0"
numfig = True
myst_enable_extensions = ["dollarmath", "amsmath"]
