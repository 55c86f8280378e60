"""The `ninfer-conform` console script: runs the executable this package installs."""
import os
import sys

from . import EXECUTABLE


def main():
    os.execv(EXECUTABLE, [EXECUTABLE] + sys.argv[1:])


if __name__ == "__main__":
    main()
