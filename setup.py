"""The optional compiled extension (``engine/_kernels.c``, the search's hot paths); the rest of the
build is pyproject.toml's. The extension never fails the install: without a working C compiler or the
Python headers the build warns and the pure-Python code runs (``engine/barbu/search/kernels.py``)."""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that turns a failed compile into a warning: the extension is a speed-up, not a need."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all (DistutilsPlatformError) and the like
            _warn(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # a compile or link error: CompileError, LinkError, DistutilsExecError
            _warn(exc)


def _warn(exc: BaseException) -> None:
    print(
        f"WARNING: the compiled kernels were not built ({exc}); barbu runs its pure-Python code instead",
        file=sys.stderr,
    )


setup(
    ext_modules=[
        Extension("engine._kernels", ["engine/_kernels.c"], extra_compile_args=["-O2"]),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
