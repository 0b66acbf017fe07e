# expect: SyntaxError

