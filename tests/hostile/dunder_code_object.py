# expect: AttributeError
consts = (lambda: 0).__code__.co_consts
