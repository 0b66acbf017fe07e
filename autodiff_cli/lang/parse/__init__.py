"""Source text to syntax tree: the lexer and LALR driver running the shipped tables, the
indentation post-lexer, our `Tree`/`Token`, string literals and f-strings, and located syntax
errors. `table_builder` (run as `python -m autodiff_cli.lang.parse.table_builder`) regenerates
the tables from `grammar/autodiff.lark` with Lark; nothing else here uses Lark."""
