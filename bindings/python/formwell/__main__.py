"""``python -m formwell ARGS``: the ``formwell`` command-line tool (see :mod:`formwell._cli`)."""

from ._cli import main

if __name__ == "__main__":
    main()
