"""PDF tests: LaTeX output compiled with latexmk and TeX Live, read back with pypdf."""
