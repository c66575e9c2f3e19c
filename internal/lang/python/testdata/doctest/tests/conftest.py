def helper():
    """>>> helper()"""
