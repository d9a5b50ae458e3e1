# fix: The message shows the child search (for MIN, whose value is negated) pruning with MAX's window (alpha, inf) unflipped, so the wrong move is chosen; I pass the window from the child player's side, (-inf, -alpha), to alphabeta_value.
# clear: partly

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a), -math.inf, -alpha)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action
