# expect: NameError
exec("x = 1")
