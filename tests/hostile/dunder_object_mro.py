# expect: AttributeError
print(object.__mro__)
