"""``smuggle serve``: play, watch and replay the games in a browser (the ``web`` extra).

``app.create_app(db)`` builds the ASGI app (Starlette); ``server.serve`` runs it with uvicorn.
``tables`` runs the tables (seats, tokens, bots in worker threads), ``views`` builds what a seat
is shown from the engine's per-seat interfaces only, ``cards``, ``decisions``, ``marks`` and
``rules`` turn observations, legal actions and the rules pages into what the page draws (what
each game adds is its plugin module, ``games/<game>.py``), and ``store`` keeps tables, finished
games (in the tournament schema) and human decisions in SQLite; ``parser`` declares the options of
``smuggle serve`` and ``export-human``, ``cli`` runs them. The modules that need Starlette are
imported only by ``serve``, so the rest of ``smuggle`` runs without it.
"""
