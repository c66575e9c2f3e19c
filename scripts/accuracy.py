"""scripts/accuracy.py: the comparison pyaccuracy.py and jsaccuracy.py share.

Exact names only: a runner's name the static listing holds as a leaf is
exact; one it does not hold is missed (under a dynamic record, or not);
a static leaf the runner does not list is an extra. Precision is exact
over exact plus extras, recall exact over what the runner listed.
"""
import os


def report(root, label, runtime, leaves, dynamic, covered, took, show):
    """Prints one project's line and, up to show of each, its misses and
    extras. runtime is the runner's names (a list: duplicates counted
    apart), leaves the static leaf names, covered(name, dynamic) whether a
    dynamic record stands for a name."""
    rt = set(runtime)
    exact = [n for n in rt if n in leaves]
    missed = [n for n in sorted(rt) if n not in leaves]
    under = [n for n in missed if covered(n, dynamic)]
    other = [n for n in missed if not covered(n, dynamic)]
    extras = sorted(n for n in leaves if n not in rt)
    precision = len(exact) / max(1, len(exact) + len(extras))
    recall = len(exact) / max(1, len(rt))
    dup = len(runtime) - len(rt)
    dups = f" (+{dup} duplicate names)" if dup else ""
    print(f"## {os.path.basename(root)}{label}: collected {len(rt)}{dups}, exact {len(exact)}, extras {len(extras)}, "
          f"missed under dynamic records {len(under)}, other misses {len(other)}; "
          f"precision {precision:.4f}, recall {recall:.4f}; static listing {took:.2f} s")
    for title, names in (("missed under dynamic records", under), ("other misses", other), ("extras", extras)):
        if names and show:
            print(f"  {title}:")
            for n in names[:show]:
                print("    " + n)
