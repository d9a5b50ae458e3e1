# fix: the message says my search left MAX node P1.1 after 1 of its 2 children (value 6, not 7), i.e. my early return at a 'win' (>= 1 / <= -1) cuts trees whose utilities are not just +-1, so I removed those early returns and every child is searched.
# clear: partly

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            best = -math.inf
            for a in game.actions(s):
                best = max(best, value(game.result(s, a)))
            return best
        worst = math.inf
        for a in game.actions(s):
            worst = min(worst, value(game.result(s, a)))
        return worst

    return value(state)
