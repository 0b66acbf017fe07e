"""Notebooks: a Jupyter kernel whose cells run in the REPL's jailed session (`kernel`,
`kernel_session`, `kernelspec`), and `autodiff run notebook.ipynb` (`ipynb`, `run_notebook`,
`cell_report`). Both go through `cells` (IPython magics and shell lines) and, in the jailed
child, `cell_run` (one cell: its last expression echoed, its error located in the cell).

Nothing here is imported by the other commands: Jupyter's packages (the `jupyter` extra) are
imported only by the kernel and its installer.
"""
