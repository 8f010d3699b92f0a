"""The knock games: Gin Rummy, Oklahoma Gin and Oklahoma Rummy."""
