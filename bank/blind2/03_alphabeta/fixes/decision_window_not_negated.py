# fix: The message said the MIN child should be searched with alpha = best value so far of MAX, but my call passes that window in MAX's terms to alphabeta_value which values the child for MIN; I negated and swapped the window to (-inf, -best_value).
# clear: partly

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a), -math.inf, -best_value)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
