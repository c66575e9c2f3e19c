def run():
    """>>> run()"""
