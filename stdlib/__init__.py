"""The pyx standard library, written in pyx (`.px` files shipped as package data).

This `__init__.py` exists so editable installs can import the package.
"""
