# expect: AttributeError
print("{0.__class__.__bases__}".format(1))
