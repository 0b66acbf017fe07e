# expect: AttributeError
# Walk from a tuple to object and its subclasses.
classes = ().__class__.__bases__[0].__subclasses__()
