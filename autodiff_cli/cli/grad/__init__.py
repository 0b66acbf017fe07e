"""`autodiff grad`: the command (`command`), what it computes (`result`, `points` for `--at` and
`--wrt`), its report (`report`, `notes`), and the optional `--explain` (`explain`) and `--check`
(`fdcheck`) passes."""
