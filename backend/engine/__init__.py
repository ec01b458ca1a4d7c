"""The pure, game-agnostic engine: the game contract, RNG, replay, board geometry."""
