"""import_fresh_module as CPython's test.support.import_helper has it: the
module is imported anew, its classes new objects each time."""
import importlib
import sys


def import_fresh_module(name, fresh=(), blocked=()):
    saved = sys.modules.pop(name, None)
    try:
        return importlib.import_module(name)
    finally:
        sys.modules.pop(name, None)
        if saved is not None:
            sys.modules[name] = saved
