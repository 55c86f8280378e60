"""Capability names as `--require` takes them (runners/target.h's Capability, pipe verbs)."""
CAPABILITIES = ("decode", "validate", "parse", "reconstruct", "convert", "encode", "validate-tensor", "dequantize",
                "layout")
