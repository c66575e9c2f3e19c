def made():
    pass


made.__doc__ = ">>> made()"

__test__ = {name: ">>> 1\n1\n" for name in ("a", "b")}


def static_one():
    """>>> static_one()"""
