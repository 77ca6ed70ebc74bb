"""The browser client's files: ``index.html``, ``style.css`` and the ES modules under ``js/``.

Data only, no Python: the server serves these files (``server.static``) straight from the installed package
with ``importlib.resources``. They live in a package of their own, not under ``client/``, because the server
sits below the client layer and must not import it (importing ``client.web`` would run ``client/__init__``,
the Python client library). The page speaks the JSON encoding of the protocol over a WebSocket to the origin
it was loaded from (``docs/protocol.md``); nothing is built and nothing is fetched from elsewhere.
"""
