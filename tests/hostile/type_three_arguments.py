# expect: TypeError
X = type("X", (), {})
