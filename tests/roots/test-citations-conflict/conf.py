import sys
from pathlib import Path

# A stand-in for sphinxcontrib.bibtex (only its name matters to the check).
sys.path.insert(0, str(Path(__file__).parent))

extensions = ["sphinxcontrib.bibtex", "sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Conflict"
