"""Stage 4: the typed tree lowered to pyx IR, then IR passes, each followed by the verifier."""
from .lower import lower_program
from .passes import PASSES
from .printer import print_module
from .verify import VerifyError, verify_module

__all__ = ["lower_program", "PASSES", "print_module", "verify_module", "VerifyError"]
