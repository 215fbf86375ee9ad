"""The backends and precisions a run may ask for, named without loading the kernel toolchain (the command line
lists them in its help; runtime.py checks a choice against them)."""

ARCHS = ("cpu", "gpu", "cuda", "vulkan", "metal")
PRECISIONS = ("f64", "f32")
