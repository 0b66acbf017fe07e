# expect: NameError
getattr(1, "__class__")
