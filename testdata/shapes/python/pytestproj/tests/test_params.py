import pytest

VALUES = [1, 2, 3]


class Point:
    pass


@pytest.mark.parametrize("n", [1, 2.5, -3, 0x10, 1e20, 1_000])
def test_numbers(n):
    pass


@pytest.mark.parametrize("s", ["a", "hé", "tab\there", "", "a b", b"by\xfftes", "new\nline"])
def test_strings(s):
    pass


@pytest.mark.parametrize("v", [True, False, None])
def test_constants(v):
    pass


@pytest.mark.parametrize("i", range(3))
def test_range(i):
    pass


@pytest.mark.parametrize("a,b", [(1, "x"), (2, "y")])
def test_tuple_names_string(a, b):
    pass


@pytest.mark.parametrize(("a", "b"), [(1, 2)])
def test_tuple_names_tuple(a, b):
    pass


@pytest.mark.parametrize(["a", "b"], [[3, 4]])
def test_tuple_names_list(a, b):
    pass


@pytest.mark.parametrize("x", [1, 2, 3], ids=["one", None, "three"])
def test_ids_list(x):
    pass


@pytest.mark.parametrize("x", [1, 2], ids=lambda v: f"v{v}")
def test_ids_callable(x):
    pass


@pytest.mark.parametrize(
    "x",
    [
        pytest.param(1, id="first"),
        pytest.param(2, marks=pytest.mark.skip),
        pytest.param(3, marks=[pytest.mark.slow, pytest.mark.xfail]),
    ],
)
def test_param(x):
    pass


@pytest.mark.parametrize("x", [1, 2])
@pytest.mark.parametrize("y", ["a", "b"])
def test_stacked(x, y):
    pass


@pytest.mark.parametrize("x", [1, 1, 2, "a", "a"])
def test_duplicates(x):
    pass


@pytest.mark.parametrize("obj", [object(), [1, 2], {"k": 1}, Point, int, lambda: 1])
def test_objects(obj):
    pass


@pytest.mark.parametrize("x", VALUES)
def test_module_constant(x):
    pass


def make_values():
    out = []
    for i in range(2):
        out.append(i + 1)
    return out


@pytest.mark.parametrize("x", make_values())
def test_helper_table(x):
    pass


def read_values():
    with open(__file__) as f:
        return [len(f.readline()) > 0]


@pytest.mark.parametrize("x", read_values())
def test_dynamic_table(x):
    pass


@pytest.mark.parametrize("x", [])
def test_empty(x):
    pass


@pytest.mark.parametrize("x", [1, 2])
class TestClassParams:
    @pytest.mark.parametrize("y", [3])
    def test_both(self, x, y):
        pass

    def test_class_only(self, x):
        pass
