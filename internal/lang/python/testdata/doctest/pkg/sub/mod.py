class Deep:
    def go(self):
        """Go.

            >>> Deep().go()
        """
