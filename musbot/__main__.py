import sys

from musbot.cli import main

sys.exit(main())
