# expect: AttributeError
print("{x.__init__}".format(x=[]))
