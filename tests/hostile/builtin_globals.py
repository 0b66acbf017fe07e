# expect: NameError
print(globals())
