"""Build the Cython search kernel ``scopa_solver._kernel`` from ``ext/``."""
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

# The kernel counts bits all the time: use the CPU's popcount instruction where every 64-bit CPU
# of the family has it (x86-64 since 2008; aarch64 always), never a machine-specific -march.
flags = ["-O3"]
if platform.machine().lower() in ("x86_64", "amd64"):
    flags.append("-mpopcnt")

kernel = Extension(
    "scopa_solver._kernel",
    sources=["ext/_kernel.pyx"],
    include_dirs=["ext"],
    extra_compile_args=flags,
)

setup(
    ext_modules=cythonize(
        [kernel],
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
