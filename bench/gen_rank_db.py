"""Generate a cluster run of realistic rank dbs: the command line of ``warehouse.synth.rank_db``.

Usage::

    .venv/bin/python bench/gen_rank_db.py OUT --ranks 64 --api-rows 40000
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warehouse.synth.rank_db import generate, main  # noqa: E402,F401  (bench_rank_db imports generate)

if __name__ == "__main__":
    main()
