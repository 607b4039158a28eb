"""Stage 1: source text to AST."""
from .parser import parse, parse_file

__all__ = ["parse", "parse_file"]
