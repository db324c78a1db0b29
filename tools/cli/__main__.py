"""``python -m provost.tools.cli``: the ``provost`` command."""
import sys

from . import main

sys.exit(main())
