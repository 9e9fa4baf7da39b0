"""The ``coins`` command line: a thin layer over ``solver`` (see ``coins.cli``)."""
