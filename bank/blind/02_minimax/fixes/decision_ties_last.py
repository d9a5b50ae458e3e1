# fix: the message says ties must keep the first best action (strictly better only); I changed >= to > in minimax_decision.
# clear: yes

# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        if game.to_move(s) == me:
            return max(value(game.result(s, a)) for a in game.actions(s))
        return min(value(game.result(s, a)) for a in game.actions(s))

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_action
