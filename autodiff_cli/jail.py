"""`python -m autodiff_cli.jail [--json] FILE...`: run each FILE as raw Python inside the jail every
script gets, in a jailed child of its own.

For administrators checking their host with their own probes (see SECURITY.md, "How to check a
host"); the work is in `autodiff_cli.cli.jail.raw`, imported only after the clean start (which
may replace this process: what was imported before it would be imported twice).
"""

from autodiff_cli.cli.jail.clean_start import ensure_clean_start

if __name__ == "__main__":
    ensure_clean_start("autodiff_cli.cli.jail.raw:main")
    from autodiff_cli.cli.jail.raw import main

    main()
