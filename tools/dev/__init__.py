"""Developer scripts: benchmarks, documentation generation, value-model training.

Not part of the ``provost`` command (that is :mod:`provost.tools.cli`); run them as
``python -m provost.tools.dev.NAME``.
"""
