# pydata-sphinx-theme options as a real project sets them (tests/test_theme_options.py).
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Theme options"
copyright = "2025, The authors"
version = "2.0"
html_static_path = ["_static"]
html_context = {
    "github_user": "octo",
    "github_repo": "book",
    "github_version": "main",
    "doc_path": "docs",
}
html_theme_options = {
    "navbar_end": ["version-switcher", "theme-switcher", "navbar-icon-links"],
    "switcher": {"json_url": "_static/switcher.json", "version_match": "2.0"},
    "show_version_warning_banner": True,
    "external_links": [
        {"name": "Blog", "url": "https://blog.example.org/"},
        {"name": "Forum", "url": "https://forum.example.org/"},
    ],
    "use_edit_page_button": True,
    "github_url": "https://github.com/octo/book",
    "logo": {"text": "Options Book"},
    "show_toc_level": 1,
    "back_to_top_button": True,
    "navigation_with_keys": True,
    "footer_end": ["theme-version"],
    "navigation_depth": 2,
    "analytics": {"google_analytics_id": "G-XXXXXXX"},
}
