"""`python -m autodiff_cli`: the same entry point as the `autodiff` console script."""

from autodiff_cli.cli.app import main

if __name__ == "__main__":
    main()
