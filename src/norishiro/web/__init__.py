"""The local web page: a thin layer over the library (``norishiro serve``)."""
