"""Stand-in for sphinxcontrib.bibtex in the conflict test."""


def setup(app):
    return {"parallel_read_safe": True, "parallel_write_safe": True}
