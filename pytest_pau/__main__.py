import sys

from pytest_pau.cli.main import main

sys.exit(main())
