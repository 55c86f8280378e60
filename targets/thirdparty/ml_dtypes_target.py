"""ml_dtypes as an in-process target of the Python package (python/, README "From Python"): the
twin of ml_dtypes_adapter.py, with the same conversions (imported from it, so the two cannot drift)
and the same name and version, driven by the runner without a pipe. Its certificate's findings
equal the pipe adapter's (python/tests/test_ml_dtypes_twin.py)."""
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ml_dtypes_adapter  # noqa: E402


class MlDtypes:
    name = "ml_dtypes"

    def __init__(self):
        self.version = "%s+numpy-%s" % (md.version("ml_dtypes"), md.version("numpy"))

    def decode(self, word_type, words):
        if word_type not in ml_dtypes_adapter.DECODE_TYPES:
            return None
        import numpy as np
        with np.errstate(all="ignore"):
            return ml_dtypes_adapter.decode(word_type, words)

    def convert(self, recipe, words):
        if recipe not in ml_dtypes_adapter.RECIPES:
            return None
        import numpy as np
        with np.errstate(all="ignore"):
            return ml_dtypes_adapter.convert(recipe, words)


TARGET = MlDtypes()
