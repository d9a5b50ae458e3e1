# fix: The message says each root move's search returns the value for MIN, the player to move in the child (-6, -7), while the decision compares values for MAX (6, 7); I negated the child's value: v = -alphabeta_value(...).
# clear: partly

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_action
