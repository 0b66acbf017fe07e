"""`python -m autodiff_cli.jail FILE`: run FILE as raw Python inside the jail every script gets.

For administrators checking their host with their own probes (see SECURITY.md, "How to check a
host"); the work is in `autodiff_cli.cli.jail.raw`.
"""

from autodiff_cli.cli.jail.raw import main

if __name__ == "__main__":
    main()
