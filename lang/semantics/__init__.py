"""Stage 2: names, types and checking (driven per instance by the monomorphizer)."""
