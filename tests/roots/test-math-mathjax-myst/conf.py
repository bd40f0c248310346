extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "MathJax TeX"
copyright = "2025, The authors"
version = "1.0"
myst_enable_extensions = ["amsmath"]  # environments outside $$, as MyST reads them
numfig = True  # as `sphinx-playbook new` sets it: equation numbers come from numfig
