import unittest as ut


class InnerTests(ut.IsolatedAsyncioTestCase):
    async def test_async(self):
        pass
