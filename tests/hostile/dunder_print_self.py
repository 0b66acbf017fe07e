# expect: AttributeError
module = print.__self__
