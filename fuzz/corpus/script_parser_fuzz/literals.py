s = 'a' "b" '''c
d''' r'\n' "\x41\u00e9\U0001F600\101"
t = (1., .5, 1e10, (), (1,), [], {}, None, True, ...)
del s, t[0]
raise ValueError("bad \
value")
