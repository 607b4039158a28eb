"""Stage 3: instantiate every function reachable from the roots, once per signature."""
from .instantiate import Program, instantiate_program

__all__ = ["Program", "instantiate_program"]
