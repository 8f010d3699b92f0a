"""The table games: traditional Rummy and Kaluki (melds on the table during play)."""
