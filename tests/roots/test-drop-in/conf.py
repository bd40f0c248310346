"""A project moved from pydata-sphinx-theme: another extension reads each written body."""

project = "Drop-in"
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
exclude_patterns = ["_build"]


def record_body(app, pagename, templatename, context, doctree):
    """What an extension at the default priority (sphinx-tippy, say) reads."""
    if "body" in context:
        app.config.drop_in_bodies[pagename] = context["body"]


def setup(app):
    app.add_config_value("drop_in_bodies", {}, "")
    app.connect("html-page-context", record_body)
