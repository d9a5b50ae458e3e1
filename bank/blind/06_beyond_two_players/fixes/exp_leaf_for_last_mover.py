# fix: the message says leaves were valued for the player moving above them; I value every leaf with game.utility(s, root) for the root player.
# clear: yes

# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    root = game.to_move(state)

    def value(s, last):
        if game.is_terminal(s):
            return game.utility(s, root)
        mover = game.to_move(s)
        if mover == CHANCE:
            return sum(p * value(game.result(s, a), last) for a, p in game.outcomes(s))
        values = [value(game.result(s, a), mover) for a in game.actions(s)]
        return max(values) if mover == root else min(values)

    return value(state, root)
