import sys

# A warm, plain `pyx run FILE` starts the program without importing the compiler (quick_run.py);
# everything else goes to cli.main.
from .quick_run import main

sys.exit(main())
