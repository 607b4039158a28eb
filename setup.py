"""Map the three source roots onto the `pyx` package tree.

setuptools does not discover subpackages below a renamed root, so the list is
computed here, once per root, instead of being kept by hand.
"""
from setuptools import find_namespace_packages, setup

ROOTS = {"pyx": "lang", "pyx.runtime": "runtime", "pyx.stdlib": "stdlib"}


def packages_and_dirs():
    packages, dirs = [], {}
    for name, root in ROOTS.items():
        packages.append(name)
        dirs[name] = root
        for sub in find_namespace_packages(where=root, exclude=["*__pycache__*"]):
            packages.append(f"{name}.{sub}")
            dirs[f"{name}.{sub}"] = f"{root}/{sub.replace('.', '/')}"
    return packages, dirs


PACKAGES, PACKAGE_DIR = packages_and_dirs()
setup(packages=PACKAGES, package_dir=PACKAGE_DIR)
