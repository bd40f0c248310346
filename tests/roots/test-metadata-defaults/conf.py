extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Defaults"
playbook_authors = [{"name": "Site Author", "affiliations": ["Site Lab"]}]
playbook_published = "2024-01-02"
playbook_doi = "https://doi.org/10.9999/site"
copyright = "2025, The authors"
version = "1.0"
