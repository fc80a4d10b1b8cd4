"""One folder per game: rules engine, card data, observation encoder, text render."""
