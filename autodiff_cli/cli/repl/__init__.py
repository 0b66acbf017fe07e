"""The REPL (`autodiff repl`): the entry (`main`), the terminal (`terminal`, prompt_toolkit) and
plain input (`input`), meta-commands (`commands`), the jailed session (`session`) and its
completion (`completion`)."""
