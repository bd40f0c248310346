import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

extensions = ["sphinx_playbook", "sphinx.ext.autodoc"]
html_theme = "sphinx_playbook"
project = "API pages"
copyright = "2025, The authors"
version = "2.0"
