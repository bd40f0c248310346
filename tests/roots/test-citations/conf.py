extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Citations"
copyright = "2025, The authors"
version = "1.0"
playbook_bibfiles = ["references.bib"]
playbook_repository_url = "https://github.com/example/playbook"
html_baseurl = "https://example.org/book/"
