class Stats:
    def _calc_mean(self):
        """>>> 1
        1
        """


for name in ["mean"]:
    delattr(Stats, "_calc_" + name)


def kept():
    """>>> kept()"""
