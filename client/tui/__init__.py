"""The full-screen terminal client (``barbu play``): lobby, Barbu table, solitaire, over ``client.connection``.

Modules: ``cards`` (card text and colours), ``model`` (what the client knows), ``session`` (the connection,
login and the reconnect loop), ``barbu_screen`` / ``lobby_screen`` / ``solitaire_screen`` (drawing and the
choices of each view), ``keys`` (key bindings), ``app`` (the prompt-toolkit application), ``local`` (a private
server with three bots for ``barbu play --local``).
"""
