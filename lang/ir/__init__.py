"""Stage 4: the typed tree lowered to pyx IR, then IR passes (run by passmanager.py), each followed by
the verifier when verification is on."""
from .lower import lower_program
from .printer import print_module
from .verify import VerifyError, verify_module

__all__ = ["VerifyError", "lower_program", "print_module", "verify_module"]
