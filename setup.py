"""Build the Cython search kernel ``scopa_solver._kernel`` from ``ext/``."""
from Cython.Build import cythonize
from setuptools import Extension, setup

kernel = Extension(
    "scopa_solver._kernel",
    sources=["ext/_kernel.pyx"],
    include_dirs=["ext"],
    extra_compile_args=["-O3"],
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
