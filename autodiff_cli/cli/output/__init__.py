"""What the user sees on the terminal: styling decisions and stderr (`terminal`), a child's
collected output (`output_text`), script failures and warnings (`diagnostics`) and the teaching
hints after them (`hints`)."""
