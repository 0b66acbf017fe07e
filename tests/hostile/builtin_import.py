# expect: NameError
os = __import__("os")
