"""Run by sphinx-autobuild around each preview build (``--pre-build``/``--post-build``).

``python -S preview_hook.py STATE STATUS_FILE`` records STATE ("building" before
Sphinx runs, "ok" after it succeeded) and the process that runs the build (this
script's parent), which ``sphinx-playbook preview`` reads to tell a build still
running from one that failed. Standard library only, run without ``site``: it
costs a few milliseconds of every rebuild.
"""

import json
import os
import sys

if __name__ == "__main__":
    state, path = sys.argv[1], sys.argv[2]
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump({"state": state, "pid": os.getppid()}, file)
    os.replace(temporary, path)
