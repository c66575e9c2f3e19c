def gen():
    """>>> gen()"""
