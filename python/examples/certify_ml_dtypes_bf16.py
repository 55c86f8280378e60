"""Certify ml_dtypes' float32 -> bfloat16 cast in process (README "From Python"). Usage: OUT_DIR [STRIDE]"""
import sys, importlib.metadata as md
import numpy as np, ml_dtypes, ninfer_conform

class MlDtypesBF16:
    name, version = "ml_dtypes", "%s+numpy-%s" % (md.version("ml_dtypes"), md.version("numpy"))
    def convert(self, recipe, words):  # uint32 binary32 bits in, uint16 bfloat16 bits out
        return words.view(np.float32).astype(ml_dtypes.bfloat16).view(np.uint16) if recipe == "F32_TO_BF16_RNE" else None

cert = ninfer_conform.certify(MlDtypesBF16(), out=sys.argv[1], suite="convert.F32_TO_BF16_RNE*",
                              sweep="convert.F32_TO_BF16_RNE", stride=int(sys.argv[2]) if len(sys.argv) > 2 else 1, jobs=2)
print(cert["overall"], "-", cert.verdict)
