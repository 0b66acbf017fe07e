# expect: NameError
eval("1 + 1")
