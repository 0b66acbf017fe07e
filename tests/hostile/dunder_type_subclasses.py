# expect: AttributeError
print(type(1).__subclasses__())
