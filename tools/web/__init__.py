"""The board in the browser: ``provost serve`` (app.py, table.py) and ``provost view`` (replay_page.py).

Needs the ``web`` extra (Starlette, uvicorn) for the server; the self-contained replay page needs nothing.
"""
