"""No doctests here."""
