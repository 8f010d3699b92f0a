"""The package version (also ``rummykit.__version__``), in a module of its own so that the
records that carry it need not import the package."""

__version__ = "0.1.0"
