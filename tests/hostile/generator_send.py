# expect: AttributeError
(x for x in [1]).send(None)
